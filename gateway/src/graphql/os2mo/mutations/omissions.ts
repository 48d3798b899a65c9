/**
 * What OS2mo's `Mutation` (v29/v30) has that this module leaves out, each with the reason: the Service API
 * behind the gateway cannot back it. Every Mutation field and input field of OS2mo's printout is either
 * served or listed here; the conformance test checks both directions.
 */
export interface Omission {
  /** A Mutation field (`org_unit_delete`), a whole prefix (`class_*`), or an input field (`ITUserCreateInput.note`). */
  coordinate: string;
  reason: string;
}

const noServiceWrite = 'the Service API has no write for it';
const terminateFrom =
  "the Service API ends a person or a record at one date (its terminate takes `to` only); OS2mo's `from` would make a gap";

export const omittedMutationFields: readonly Omission[] = [
  {
    coordinate: 'class_terminate',
    reason:
      'classes: the Service API writes a class in force for all time (OS2mo 2.4.0 service/facet.py:763-764, POST /service/f/{facet}/ takes no validity), so it cannot end one',
  },
  { coordinate: 'facet_*', reason: `facets: ${noServiceWrite}` },
  { coordinate: 'itsystem_*', reason: `IT systems: ${noServiceWrite}` },
  { coordinate: 'itassociation_*', reason: `IT associations: ${noServiceWrite}` },
  { coordinate: 'rolebinding*', reason: `role bindings: ${noServiceWrite}` },
  { coordinate: 'org_create', reason: `the root organisation: ${noServiceWrite}` },
  { coordinate: '*_delete', reason: 'the Service API ends records (terminate) but never deletes them' },
  {
    coordinate: 'upload_file',
    reason:
      "OS2mo's file uploads: the Service API's exports router only lists and reads files (GET /service/exports/, OS2mo 2.4.0 service/exports.py:14 and :45); it cannot store one",
  },
];

export const omittedInputFields: readonly Omission[] = [
  ...['ClassCreateInput', 'ClassUpdateInput'].flatMap((input) =>
    ['parent_uuid', 'example', 'owner', 'it_system_uuid', 'description'].map((field) => ({
      coordinate: `${input}.${field}`,
      reason:
        "the Service API's class write (the contract's ClassWrite: OS2mo 2.4.0 MOClass) holds a class's name, user key, scope and organisation only",
    })),
  ),
  ...['ManagerCreateInput', 'ManagerUpdateInput'].map((input) => ({
    coordinate: `${input}.engagement`,
    reason: "the Service API's manager record has no engagement",
  })),
  ...['AddressCreateInput', 'AddressUpdateInput'].map((input) => ({
    coordinate: `${input}.ituser`,
    reason:
      "the Service API's address record belongs to a person, a unit or an engagement, not an IT account",
  })),
  ...['AssociationCreateInput', 'AssociationUpdateInput'].map((input) => ({
    coordinate: `${input}.trade_union`,
    reason: "the Service API's association record has no trade union",
  })),
  ...['ITUserCreateInput', 'ITUserUpdateInput'].flatMap((input) =>
    ['external_id', 'binding_type', 'primary', 'engagement', 'engagements', 'note'].map((field) => ({
      coordinate: `${input}.${field}`,
      reason: "the Service API's IT account holds its system, user name and owner (person or unit) only",
    })),
  ),
  ...[
    'EmployeeTerminateInput',
    'EngagementTerminateInput',
    'ManagerTerminateInput',
    'OwnerTerminateInput',
    'AddressTerminateInput',
    'AssociationTerminateInput',
    'ITUserTerminateInput',
    'KLETerminateInput',
    'LeaveTerminateInput',
  ].map((input) => ({ coordinate: `${input}.from`, reason: terminateFrom })),
];
