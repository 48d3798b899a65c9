import { added, at, notServed, type CoordinateEntry } from './entry.js';
import { noDelete, roles, terminateFrom, uploads } from './facts.js';

/**
 * OS2mo's mutations and their input types, where this backend does not simply serve them: the writes the
 * Service API has not (each field of a served input is served unless it is here), and what OS2mo added later.
 */

const noServiceWrite = (what: string) =>
  notServed(`${what}: the Service API has no write for it`, ['contract:/service/f/{facet}/']);
const classEnds = notServed(
  'classes: the Service API writes a class in force for all time (OS2mo 2.4.0 service/facet.py:763-764, POST /service/f/{facet}/ takes no validity), so it cannot end one',
  ['os2mo:backend/mora/service/facet.py@2.4.0:763', 'contract:ClassWrite'],
);
const facetWrites = noServiceWrite('facets');
const itSystemWrites = noServiceWrite('IT systems');
const itAssociations = notServed('IT associations: the Service API cannot create or read them', [
  'contract:Association',
]);
const organisationWrite = noServiceWrite('the root organisation');
const unusedInputs = notServed(
  "OS2mo's input and result types that none of its served mutations takes or gives (the organisation's create, open validities)",
  ['contract:NewValidity'],
);

export const mutations: Readonly<Record<string, CoordinateEntry>> = {
  ...at(classEnds, ['Mutation.class_terminate', 'ClassTerminateInput']),
  ...at(facetWrites, [
    'Mutation.facet_create',
    'Mutation.facet_delete',
    'Mutation.facet_terminate',
    'Mutation.facet_update',
    'FacetCreateInput',
    'FacetTerminateInput',
    'FacetUpdateInput',
  ]),
  ...at(itSystemWrites, [
    'Mutation.itsystem_create',
    'Mutation.itsystem_delete',
    'Mutation.itsystem_terminate',
    'Mutation.itsystem_update',
    'ITSystemCreateInput',
    'ITSystemTerminateInput',
    'ITSystemUpdateInput',
  ]),
  ...at(itAssociations, [
    'Mutation.itassociation_create',
    'Mutation.itassociation_terminate',
    'Mutation.itassociation_update',
    'ITAssociationCreateInput',
    'ITAssociationTerminateInput',
    'ITAssociationUpdateInput',
  ]),
  ...at(organisationWrite, ['Mutation.org_create']),
  ...at(unusedInputs, ['OrganisationCreate', 'RAOpenValidityInput']),
  ...at(uploads, ['Mutation.upload_file']),
  ...at(
    noDelete,
    ['address', 'class', 'employee', 'engagement', 'ituser', 'org_unit'].map(
      (kind) => `Mutation.${kind}_delete`,
    ),
  ),
  ...at(
    terminateFrom,
    ['Employee', 'Engagement', 'Manager', 'Owner', 'Address', 'Association', 'ITUser', 'KLE', 'Leave'].map(
      (type) => `${type}TerminateInput.from`,
    ),
  ),
  // v21's printout (2024) has roles, which OS2mo has since replaced by role bindings in every version (36.0.0).
  ...at(
    roles,
    ['create', 'update', 'terminate', 'refresh'].map((verb) => `Mutation.role_${verb}`),
    { until: 22 },
  ),
  ...added(22, [
    ...[
      'engagements_create',
      'engagements_update',
      'managers_create',
      'addresses_create',
      'itusers_create',
    ].map((field) => `Mutation.${field}`),
    'AssociationCreateInput.substitute',
    'AssociationUpdateInput.substitute',
  ]),
  // Absent from the printouts of v21, v22 and v25; left out below v29 so that each version is a subset of its printout.
  ...added(29, ['EngagementCreateInput.fraction', 'EngagementUpdateInput.fraction']),
};
