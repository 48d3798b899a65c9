import {
  at,
  bound,
  dropsRootOrganisation,
  empty,
  holdsNone,
  omitted,
  pageArgs,
  responses,
  type TypeLedger,
} from './entry.js';
import * as facts from './facts.js';

const facetNoParent = holdsNone(
  'a 2.x facet (`Facet` in the contract) has no parent facet, so none has children',
  ['contract:Facet', 'contract:FacetRef'],
  ['parent', 'children'],
);

export const facet: TypeLedger = {
  type: 'Facet',
  graphType: 'Facet',
  description: 'A controlled vocabulary, whose entries are classes.',
  contract: ['Facet', 'FacetRef'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    description: { type: 'String', deprecated: 'OS2mo no longer uses it.' },
    org_uuid: { type: 'UUID!', deprecated: dropsRootOrganisation, own: true },
    classes: {
      type: '[Class!]!',
      deprecated: 'Use `classes_responses`.',
      ...bound('FacetBoundClassFilter', null, pageArgs),
    },
    classes_responses: {
      since: responses,
      type: 'ClassResponsePaged!',
      from: 'classes',
      response: 'paged',
      ...bound('FacetBoundClassFilter', null, pageArgs),
    },
    parent_response: empty(facetNoParent, 'FacetResponse', { since: responses }),
    children_response: empty(facetNoParent, 'FacetResponsePaged!', {
      args: `filter: ParentBoundFacetFilter, ${pageArgs}`,
      since: responses,
    }),
    parent: omitted(facts.facetHierarchy),
    parent_uuid: omitted(facts.facetHierarchy),
    children: omitted(facts.facetHierarchy),
    published: omitted(facts.noPublication),
    validity: omitted(facts.classNoValidity),
    type: omitted(facts.typeField),
  },
  more: {
    ...at(facts.facetHierarchy, [
      'FacetFilter.parent',
      'FacetFilter.parents',
      'FacetFilter.parent_user_keys',
      'UuidsBoundFacetFilter.parent',
      'UuidsBoundFacetFilter.parent_user_keys',
      'UuidsBoundFacetFilter.parents',
    ]),
    // v25 and older printed the filter of `Facet.children` (which is not served) under this name.
    ...at(facts.facetHierarchy, ['ParentsBoundFacetFilter'], { until: 26 }),
  },
};
