import { byUuids, omitted, responses, useUuidField, type TypeLedger } from './entry.js';
import * as facts from './facts.js';

/** The ledger of OS2mo's `Owner`: its fields, and the coordinates of its filters and inputs. */
export const owner: TypeLedger = {
  type: 'Owner',
  graphType: 'Owner',
  description: 'Who owns a unit or a person (an owner record of the unit or of the person).',
  contract: ['Owner', 'OwnerCreate', 'OwnerEdit'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    validity: { type: 'Validity!' },
    org_unit_uuid: { type: 'UUID', from: 'org_unit', deprecated: useUuidField('org_unit') },
    employee_uuid: { type: 'UUID', from: 'person', deprecated: useUuidField('person') },
    owner_uuid: { type: 'UUID', from: 'owner', deprecated: useUuidField('owner') },
    owner_inference_priority: { type: 'OwnerInferencePriority', legacy: 'owner_inference_priority' },
    org_unit: {
      type: '[OrganisationUnit!]',
      deprecated: 'Use `org_unit_response`.',
      ...byUuids('OrganisationUnit'),
    },
    person: { type: '[Employee!]', deprecated: 'Use `person_response`.', ...byUuids('Employee') },
    owner: { type: '[Employee!]', deprecated: 'Use `owner_response`.', ...byUuids('Employee') },
    org_unit_response: {
      since: responses,
      type: 'OrganisationUnitResponse',
      from: 'org_unit',
      response: 'one',
    },
    person_response: { since: responses, type: 'EmployeeResponse', from: 'person', response: 'one' },
    owner_response: { since: responses, type: 'EmployeeResponse', from: 'owner', response: 'one' },
    type: omitted(facts.typeField),
  },
};
