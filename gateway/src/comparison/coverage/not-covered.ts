/**
 * The `/service` reads no GraphQL query answers, each with the sentence the coverage report shows: what the
 * graph lacks, and what an integration does instead. An operation of the contract missing here and from the
 * checks is reported "not covered" with a general sentence, so a new endpoint is never reported covered.
 */
export const notCovered: Record<string, string> = {
  readGlobalConfiguration:
    "OS2mo 2.4.0's frontend settings (its `confdb_*` configuration), not organisation data: the graph has no place for them.",
  readOrgUnitConfiguration:
    "OS2mo 2.4.0's frontend settings (its `confdb_*` configuration), not organisation data: the graph has no place for them.",
  writeGlobalConfiguration:
    'Removed in OS2mo 2.4.0 itself (it answers 410 and writes nothing): nothing replaces it.',
  writeOrgUnitConfiguration:
    'Removed in OS2mo 2.4.0 itself (it answers 410 and writes nothing): nothing replaces it.',
  listNavLinks: "The menu links of OS2mo's frontend, from its configuration: not organisation data.",
  listExports:
    "OS2mo's `files` query (served: `files(filter: {file_store: EXPORTS})`) lists the export files through it; the report does not compare the two.",
  readExport:
    "OS2mo's `files` query (served: `text_contents`, `base64_contents`) reads an export file through it; the report does not compare the two.",
  refreshOrgUnit:
    "It runs OS2mo's triggers for a unit and reads nothing: OS2mo's v30 `org_unit_refresh` mutation succeeds it, which the gateway does not serve (no triggers or events run behind it).",
  readOrgUnitIntegrationData:
    "An importer's JSON kept on the LoRa object: no GraphQL version has `integration_data` (OS2mo's printouts have none).",
  readEmployeeIntegrationData:
    "An importer's JSON kept on the LoRa object: no GraphQL version has `integration_data` (OS2mo's printouts have none).",
  readKeycloakSettings:
    "OS2mo 2.4.0's frontend reads its realm's adapter settings here: the identity provider publishes them itself (and the gateway serves its own at `/idp.json`), not organisation data.",
  logIn:
    "OS2mo 2.4.0's frontend logs in here: a client gets its token from the identity provider, which GraphQL needs before its first query. It writes nothing.",
  autocompleteAddresses:
    "A search of the national address register (DAWA): OS2mo's GraphQL has no address search (its printouts have none); the address a record holds is read through its `addresses`.",
  writeClass:
    "OS2mo's `class_create` and `class_update` (served) write through it, admin only as here; the write proof (test/write-replacements-proof.test.ts) does not cover them yet.",
  ...Object.fromEntries(
    [
      'validateOrgUnitDates',
      'validateEmployeeDates',
      'validateCpr',
      'validateActiveEngagements',
      'validateExistingAssociations',
      'validateMovableOrgUnit',
      'validateCandidateParent',
      'validateAddress',
    ].map((operationId) => [
      operationId,
      "A check OS2mo's frontend runs before a write; it writes nothing. A GraphQL mutation makes the same check and answers its error; no query asks for the check alone.",
    ]),
  ),
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
