import {
  at,
  bound,
  dropsRootOrganisation,
  empty,
  holdsNone,
  omitted,
  pageArgs,
  responses,
  uuidsBoundArgs,
  type TypeLedger,
} from './entry.js';
import * as facts from './facts.js';

const facetNoParent = holdsNone(
  'a 2.x facet (`Facet` in the contract) has no parent facet, so none has children',
  ['contract:Facet', 'contract:FacetRef'],
  ['parent', 'parents', 'children'],
);

/** The ledger of OS2mo's `Facet`: its fields, and the coordinates of its filters and inputs. */
export const facet: TypeLedger = {
  type: 'Facet',
  graphType: 'Facet',
  description: 'A controlled vocabulary, whose entries are classes.',
  contract: ['Facet', 'FacetRef', 'FacetWithClasses', 'FacetClassListing'],
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
    parent: empty(facetNoParent, 'Facet', {
      args: uuidsBoundArgs('Facet'),
      deprecated: 'Use `parent_response`.',
    }),
    parent_uuid: empty(facetNoParent, 'UUID', { deprecated: 'Use `parent_response { uuid }`.' }),
    children_response: empty(facetNoParent, 'FacetResponsePaged!', {
      args: `filter: ParentBoundFacetFilter, ${pageArgs}`,
      since: responses,
    }),
    children: empty(facetNoParent, '[Facet!]!', {
      args: `filter: ParentBoundFacetFilter, ${pageArgs}`,
      deprecated: 'Use `children_response`.',
    }),
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
    // v25 and older print the parent members in the filter of `Facet.children` (named so then).
    ...at(
      facts.facetHierarchy,
      ['ParentsBoundFacetFilter.parent', 'ParentsBoundFacetFilter.parent_user_keys'],
      {
        until: 26,
      },
    ),
  },
};
