/**
 * The `/service` reads no GraphQL query answers, each with the sentence the coverage report shows: what the
 * graph lacks, and what an integration does instead. An operation of the contract missing here and from the
 * checks is reported "not covered" with a general sentence, so a new endpoint is never reported covered.
 */
export const notCovered: Record<string, string> = {
  listOrganisations:
    'The graph has no organisation object: the gateway fronts one organisation, and its units and people are the roots.',
  getOrganisation:
    'The graph has no organisation object and no counts (units, people, engagements, …); count a root collection’s pages instead.',
  listRootOrgUnits:
    'org_units has no filter for top-level units; read the top unit’s children, or keep the units without a parent.',
  getOrgUnitDetailTypes:
    'The graph has no “which listings have records” answer; ask for the detail fields themselves.',
  getEmployeeDetailTypes:
    'The graph has no “which listings have records” answer; ask for the detail fields themselves.',
  autocompleteEmployees: 'The graph has no text search; its filters take UUIDs and user keys.',
  autocompleteOrgUnits: 'The graph has no text search; its filters take UUIDs and user keys.',
  lookupCpr:
    'A lookup in the national CPR register, not organisation data: the graph does not reach the register.',
};

/** The mutations that replace the legacy writes (listed, not compared: writes are out of the report's scope). */
export const writeMutations: Record<string, string> = {
  createOrgUnit: 'Replaced by the mutation org_unit_create.',
  createEmployee: 'Replaced by the mutation employee_create.',
  createDetails: 'Replaced by the mutations <type>_create (engagement_create, address_create, …).',
  editDetails:
    'Replaced by the mutations <type>_update (engagement_update, …), org_unit_update and employee_update.',
  terminateDetails: 'Replaced by the mutations <type>_terminate (engagement_terminate, …).',
  terminateOrgUnit: 'Replaced by the mutation org_unit_terminate.',
  terminateEmployee: 'Replaced by the mutation employee_terminate.',
  mapOrgUnits: 'Replaced by the mutation related_units_update.',
};
