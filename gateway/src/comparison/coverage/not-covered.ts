/**
 * The `/service` reads no GraphQL query answers, each with the sentence the coverage report shows: what the
 * graph lacks, and what an integration does instead. An operation of the contract missing here and from the
 * checks is reported "not covered" with a general sentence, so a new endpoint is never reported covered.
 */
export const notCovered: Record<string, string> = {};

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
