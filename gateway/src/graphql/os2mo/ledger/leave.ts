import { byUuids, omitted, responses, usePerson, useUuidField, type TypeLedger } from './entry.js';
import * as facts from './facts.js';

/** The ledger of OS2mo's `Leave`: its fields, and the coordinates of its filters and inputs. */
export const leave: TypeLedger = {
  type: 'Leave',
  graphType: 'Leave',
  description: "A person's leave from an engagement.",
  contract: ['Leave', 'LeaveCreate'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    validity: { type: 'Validity!' },
    leave_type_uuid: { type: 'UUID!', from: 'leave_type', deprecated: useUuidField('leave_type') },
    employee_uuid: { type: 'UUID!', deprecated: useUuidField('person') },
    engagement_uuid: { type: 'UUID!', deprecated: useUuidField('engagement_response') },
    leave_type: { type: 'Class!', deprecated: 'Use `leave_type_response`.', ...byUuids('Class') },
    person: {
      type: '[Employee!]!',
      from: 'employee',
      deprecated: 'Use `person_response`.',
      ...byUuids('Employee'),
    },
    employee: { type: '[Employee!]!', deprecated: usePerson, ...byUuids('Employee') },
    leave_type_response: { since: responses, type: 'ClassResponse!', from: 'leave_type', response: 'one' },
    person_response: { since: responses, type: 'EmployeeResponse!', from: 'employee', response: 'one' },
    engagement_response: {
      since: responses,
      type: 'EngagementResponse!',
      from: 'engagement_uuid',
      response: 'one',
    },
    engagement: {
      type: 'Engagement!',
      deprecated: 'Use `engagement_response`.',
      own: true,
      ...byUuids('Engagement'),
    },
    type: omitted(facts.typeField),
  },
};
