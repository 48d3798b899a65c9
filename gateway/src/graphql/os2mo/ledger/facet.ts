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
    // The filter members of the same fact: a facet filter's `parent`, `parents` or `parent_user_keys` keeps no
    // 2.x facet given any value (`{}` and `[]` too) and every one given null. OS2mo folds the two lists into
    // `parent` (`mora/graphapi/resolvers.py`@66.1.2:171-178, so `[]` makes a `parent` of no UUIDs) and asks
    // for a facet's parent relation whenever `parent` is set (:341-359); all three default to null
    // (`mora/graphapi/filters.py`@66.1.2:379-396). The bound filters copy the members (`link-filters.ts`).
    ...at(facetNoParent, [
      'FacetFilter.parent',
      'FacetFilter.parents',
      'FacetFilter.parent_user_keys',
      'UuidsBoundFacetFilter.parent',
      'UuidsBoundFacetFilter.parent_user_keys',
      'UuidsBoundFacetFilter.parents',
    ]),
    // v25 and older print the parent members in the filter of `Facet.children` (named so then).
    ...at(facetNoParent, ['ParentsBoundFacetFilter.parent', 'ParentsBoundFacetFilter.parent_user_keys'], {
      until: 26,
    }),
  },
};
