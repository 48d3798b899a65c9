import { byUuids, omitted, responses, useUuidField, type TypeLedger } from './entry.js';
import * as facts from './facts.js';

/** The ledger of OS2mo's `RelatedUnit`: its fields, and the coordinates of its filters and inputs. */
export const relatedUnit: TypeLedger = {
  type: 'RelatedUnit',
  graphType: 'RelatedUnit',
  description: 'Two units related to each other.',
  contract: ['RelatedUnit'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    validity: { type: 'Validity!' },
    org_unit_uuids: { type: '[UUID!]!', deprecated: useUuidField('org_units') },
    org_units: {
      type: '[OrganisationUnit!]!',
      deprecated: 'Use `org_units_response`.',
      ...byUuids('OrganisationUnit'),
    },
    org_units_response: {
      since: responses,
      type: 'OrganisationUnitResponsePaged!',
      from: 'org_units',
      response: 'paged',
      ...byUuids('OrganisationUnit'),
    },
    type: omitted(facts.typeField),
  },
};
