import {
  at,
  byUuids,
  empty,
  holdsNone,
  notServed,
  omitted,
  responses,
  usePerson,
  useUuidField,
  uuidsBoundArgs,
  type TypeLedger,
} from './entry.js';
import * as facts from './facts.js';

const associationNoItFields = holdsNone(
  "a 2.x association (`Association` in the contract) has no trade union, job function or IT account: those belong to OS2mo's later IT associations and union data",
  ['contract:Association', 'contract:AssociationCreate'],
  ['trade_union', 'trade_unions', 'job_function', 'job_functions', 'it_user', 'ituser', 'it'],
);
const associationWriteNoTradeUnion = notServed("the Service API's association record has no trade union", [
  'contract:AssociationCreate',
]);

/** The ledger of OS2mo's `Association`: its fields, and the coordinates of its filters and inputs. */
export const association: TypeLedger = {
  type: 'Association',
  graphType: 'Association',
  description: "A person's association with a unit other than an employment.",
  contract: ['Association', 'AssociationCreate'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    validity: { type: 'Validity!' },
    employee_uuid: { type: 'UUID', deprecated: useUuidField('person') },
    org_unit_uuid: { type: 'UUID!', deprecated: useUuidField('org_unit') },
    association_type_uuid: {
      type: 'UUID',
      from: 'association_type',
      deprecated: useUuidField('association_type'),
    },
    primary_uuid: { type: 'UUID', from: 'primary', deprecated: useUuidField('primary') },
    substitute_uuid: { type: 'UUID', deprecated: useUuidField('substitute') },
    association_type: {
      type: 'Class',
      deprecated: 'Use `association_type_response`.',
      ...byUuids('Class'),
    },
    primary: { type: 'Class', deprecated: 'Use `primary_response`.', ...byUuids('Class') },
    person: {
      type: '[Employee!]!',
      from: 'employee',
      deprecated: 'Use `person_response`.',
      ...byUuids('Employee'),
    },
    employee: { type: '[Employee!]!', deprecated: usePerson, ...byUuids('Employee') },
    org_unit: {
      type: '[OrganisationUnit!]!',
      deprecated: 'Use `org_unit_response`.',
      ...byUuids('OrganisationUnit'),
    },
    substitute: { type: '[Employee!]!', deprecated: 'Use `substitute_response`.', ...byUuids('Employee') },
    association_type_response: {
      since: responses,
      type: 'ClassResponse',
      from: 'association_type',
      response: 'one',
    },
    primary_response: { since: responses, type: 'ClassResponse', from: 'primary', response: 'one' },
    person_response: { since: responses, type: 'EmployeeResponse', from: 'employee', response: 'one' },
    org_unit_response: {
      since: responses,
      type: 'OrganisationUnitResponse!',
      from: 'org_unit',
      response: 'one',
    },
    substitute_response: { since: responses, type: 'EmployeeResponse', from: 'substitute', response: 'one' },
    dynamic_class_uuid: { type: 'UUID', deprecated: useUuidField('dynamic_class'), own: true },
    dynamic_class: {
      type: 'Class',
      deprecated: 'Use `dynamic_class_response`.',
      own: true,
      ...byUuids('Class'),
    },
    dynamic_class_response: {
      since: responses,
      type: 'ClassResponse',
      deprecated: 'OS2mo means to replace it by fields of their own.',
      response: 'one',
      own: true,
    },
    trade_union_response: empty(associationNoItFields, 'ClassResponse', { since: responses }),
    trade_union: empty(associationNoItFields, 'Class', {
      args: uuidsBoundArgs('Class'),
      deprecated: 'Use `trade_union_response`.',
      since: 22,
    }),
    job_function: empty(associationNoItFields, 'Class', {
      args: uuidsBoundArgs('Class'),
      deprecated: 'Use `job_function_response`.',
    }),
    it_user: empty(associationNoItFields, '[ITUser!]!', {
      args: uuidsBoundArgs('ITUser'),
      deprecated: 'Use `it_user_response`.',
    }),
    trade_union_uuid: empty(associationNoItFields, 'UUID', {
      deprecated: 'Use `trade_union_response { uuid }`.',
      since: 22,
    }),
    job_function_response: empty(associationNoItFields, 'ClassResponse', { since: responses }),
    job_function_uuid: empty(associationNoItFields, 'UUID', {
      deprecated: 'Use `job_function_response { uuid }`.',
    }),
    it_user_response: empty(associationNoItFields, 'ITUserResponse', { since: responses }),
    it_user_uuid: empty(associationNoItFields, 'UUID', { deprecated: 'Use `it_user_response { uuid }`.' }),
    type: omitted(facts.typeField),
    association_type_validity: omitted(facts.validityLinks, { until: 26 }),
  },
  more: {
    ...at(associationWriteNoTradeUnion, [
      'AssociationCreateInput.trade_union',
      'AssociationUpdateInput.trade_union',
    ]),
  },
};
