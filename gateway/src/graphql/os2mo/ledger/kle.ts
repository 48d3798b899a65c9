import { byUuids, omitted, responses, useUuidField, type TypeLedger } from './entry.js';
import * as facts from './facts.js';

/** The ledger of OS2mo's `KLE`: its fields, and the coordinates of its filters and inputs. */
export const kle: TypeLedger = {
  type: 'KLE',
  graphType: 'KLE',
  description: 'A KLE number (subject classification) a unit handles, with its aspects.',
  contract: ['Kle', 'KleCreate'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    validity: { type: 'Validity!' },
    kle_number_uuid: { type: 'UUID!', from: 'kle_number', deprecated: useUuidField('kle_number') },
    kle_aspect_uuids: { type: '[UUID!]!', from: 'kle_aspects', deprecated: useUuidField('kle_aspects') },
    org_unit_uuid: { type: 'UUID!', deprecated: useUuidField('org_unit') },
    kle_number: { type: '[Class!]!', deprecated: 'Use `kle_number_response`.', ...byUuids('Class') },
    kle_aspects: { type: '[Class!]!', deprecated: 'Use `kle_aspects_response`.', ...byUuids('Class') },
    org_unit: {
      type: '[OrganisationUnit!]!',
      deprecated: 'Use `org_unit_response`.',
      ...byUuids('OrganisationUnit'),
    },
    kle_number_response: { since: responses, type: 'ClassResponse!', from: 'kle_number', response: 'one' },
    kle_aspects_response: {
      since: responses,
      type: 'ClassResponsePaged!',
      from: 'kle_aspects',
      response: 'paged',
      ...byUuids('Class'),
    },
    org_unit_response: {
      since: responses,
      type: 'OrganisationUnitResponse',
      from: 'org_unit',
      response: 'one',
    },
    type: omitted(facts.typeField),
  },
};
