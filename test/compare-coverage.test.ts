import { isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompareCommand } from '../gateway/src/comparison/cli/compare-command.js';
import { contractOperations } from '../gateway/src/contract/contract-operations.generated.js';
import { isServiceOperation } from '../gateway/src/contract/contract-operations.js';
import type { CoverageEntry, CoverageReport } from '../gateway/src/comparison/coverage/coverage.js';
import { notCovered } from '../gateway/src/comparison/coverage/not-covered.js';
import { replacementSentence } from '../gateway/src/comparison/coverage/replacements.js';
import { servedV30Schema } from '../gateway/src/comparison/os2mo-road.js';
import { detailTypes } from '../gateway/src/legacy/legacy-paths.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { changeAddressValue, editableAddress, type DetailChange } from './legacy-detail-edits.js';
import { startTestStack, type TestStack } from './stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

/** The command in-process, with the hook that runs between its legacy reads and its GraphQL queries. */
async function compare(args: string[], betweenReads?: () => Promise<void>) {
  let stdout = '';
  let stderr = '';
  const progress: string[] = [];
  const code = await runCompareCommand(
    [...args, '--gateway', stack.gatewayUrl, '--user', 'alice'],
    { IDP_URL: stack.idpUrl },
    {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      progress: (sentence) => progress.push(sentence),
    },
    { betweenReads },
  );
  return { code, stdout, stderr, progress };
}

/** A coverage run reads about 1,300 times: seconds alone, minutes on a loaded machine (a bound, not a measure). */
const coverageRunMs = 240_000;

const contractReads = () =>
  contractOperations.filter((operation) => operation.method === 'GET' && isServiceOperation(operation));

const detailEndpoint = /^\/service\/(ou|e)\/\{uuid\}\/details\/([a-z_]+)$/;
const isDetailListing = (entry: CoverageEntry) =>
  (detailTypes as readonly string[]).includes(detailEndpoint.exec(entry.path)?.[2] ?? '');

/** The first of the units (by default the first 20 the coverage report scans) with an address to change. */
async function firstUnitWithAddress(units?: string[]): Promise<string> {
  const [organisation] = (await (await stack.legacyFetch('/service/o/')).json()) as { uuid: string }[];
  const { items } = (await (
    await stack.legacyFetch(`/service/o/${organisation!.uuid}/ou/?limit=20`)
  ).json()) as { items: { uuid: string }[] };
  for (const uuid of units ?? items.map((item) => item.uuid)) {
    const addresses = await (await stack.legacyFetch(`/service/ou/${uuid}/details/address`)).json();
    if (editableAddress(addresses)) return uuid;
  }
  throw new Error('no unit among the first 20 has an e-mail address or phone number');
}

describe('npm run compare -- --coverage', { timeout: coverageRunMs }, () => {
  it('lists every /service read of the contract: each detail listing covered and proven, the rest with a reason', async () => {
    const { code, stdout, stderr } = await compare(['--coverage', '--json']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as CoverageReport;

    // Every read of the contract, read from the contract itself, is in the report once; those GraphQL does
    // not replace (OS2mo's frontend settings, exports, …) are not covered, each with its reason.
    const allReads = report.endpoints.filter((entry) => entry.method === 'GET');
    expect(allReads.map((entry) => `${entry.operationId} ${entry.path}`).sort()).toEqual(
      contractReads()
        .map((operation) => `${operation.operationId} ${operation.path}`)
        .sort(),
    );
    for (const entry of report.endpoints.filter((item) => notCovered[item.operationId] !== undefined)) {
      expect(entry, entry.operationId).toMatchObject({
        status: 'not covered',
        reason: notCovered[entry.operationId],
      });
    }
    const reads = allReads.filter((entry) => notCovered[entry.operationId] === undefined);
    // The report speaks v30; each read names the version its proof ran on. v30's query (in OS2mo's shape) is
    // what a retired endpoint's 410 names first; on v2 the reason comes from OS2mo's schema and ours.
    expect(report.version).toBe('v30');
    for (const entry of reads) {
      expect(entry.proven_on, entry.operationId).toMatch(/^v(30|2)$/);
      expect(entry.newest, entry.operationId).toMatchObject({
        version: entry.proven_on,
        query: entry.graphql,
      });
      if (entry.proven_on === 'v30') {
        expect(replacementSentence(entry)).toMatch(new RegExp(`^the GraphQL query \``));
        expect(replacementSentence(entry)).toContain(`\`${entry.graphql}\` on /graphql/v30`);
        // OS2mo's shape: a page's objects are responses, read at a time (`current`) or over a window
        // (`validities`, a version listing); `org` is OS2mo's one organisation, no page.
        if (entry.operationId !== 'listOrganisations')
          expect(entry.graphql, entry.operationId).toMatch(/\b(current|validities)\b/);
      } else {
        expect(entry.newest!.version === 'v2' && entry.newest!.reason, entry.operationId).toMatch(
          /^OS2mo has /,
        );
      }
    }
    const onV30 = reads.filter((entry) => entry.proven_on === 'v30' && entry.status === 'proven');
    // What the served v30 has today; each coordinate served later moves a read here with no edit.
    expect(onV30.length).toBeGreaterThanOrEqual(36);
    expect(onV30.map((entry) => entry.operationId)).toEqual(
      expect.arrayContaining([
        'listOrgUnits',
        'listEmployees',
        'getEmployee',
        'listOrgUnitManagers',
        'getOrgUnitTree',
        // Through OS2mo's own forms: versions under `validities`, a person's owners from `owners`.
        'listOrgUnitVersions',
        'listEmployeeVersions',
        'listEmployeeOwners',
        // Through Class.children/parent and Association.dynamic_class, served since.
        'listOrgUnitAssociations',
        'listEmployeeAssociations',
        'listClassChildren',
        'listFacetChildren',
      ]),
    );
    // Each reason once: a detail type's reason is its own, not its batch's.
    for (const entry of reads.filter((read) => read.proven_on === 'v2')) {
      const sentences = entry.newest!.version === 'v2' ? entry.newest!.reason.split(/(?<=\.) /) : [];
      expect(new Set(sentences).size, entry.operationId).toBe(sentences.length);
    }
    expect(reads.find((entry) => entry.operationId === 'lookupCpr')).toMatchObject({
      proven_on: 'v2',
      newest: { reason: "OS2mo has no place for it (`Query.cpr_lookup` is not in OS2mo's schema)." },
    });
    const classType = servedV30Schema().getType('Class');
    const childrenServed = isObjectType(classType) && 'children' in classType.getFields();
    expect(reads.find((entry) => entry.operationId === 'listClassChildren')).toMatchObject(
      childrenServed
        ? { proven_on: 'v30', status: 'proven' }
        : {
            proven_on: 'v2',
            newest: {
              reason: 'OS2mo has it (`Class.children`); served from v2 until /graphql/v30 serves it.',
            },
          },
    );

    // All 11 detail types of units and of people: covered by a GraphQL field and equal on the current data.
    const details = reads.filter(isDetailListing);
    expect(details).toHaveLength(22);
    for (const entry of details) {
      // A unit's or person's own field, or OS2mo's record collection filtered by the person.
      expect(entry.graphql, entry.path).toMatch(
        /^((org_units|employees|persons)\(filter: \{ ?uuids: \[\$uuid\] ?\}\)|[a-z_]+\(filter: \{employee: \{uuids: \[\$uuid\]\}\}\))/,
      );
      expect(['proven', 'empty'], `${entry.path}: ${entry.reason}`).toContain(entry.status);
      expect(entry.differences).toEqual([]);
    }
    // Listings with records are proven on records, not on emptiness.
    const proven = details.filter((entry) => entry.status === 'proven');
    expect(proven.length).toBeGreaterThanOrEqual(18);
    for (const entry of proven.filter((item) => item.emptyByContract === undefined))
      expect(entry.samples.length, entry.path).toBeGreaterThan(0);
    // The four listings OS2mo 2.4.0 can never fill are proven on emptiness, with the contract's reason.
    const emptyByContract = proven.filter((entry) => entry.emptyByContract !== undefined);
    expect(emptyByContract.map((entry) => entry.operationId).sort()).toEqual([
      'listEmployeeEngagementAssociations',
      'listEmployeeKles',
      'listEmployeeRelatedUnits',
      'listOrgUnitLeaves',
    ]);
    for (const entry of emptyByContract) {
      expect(entry.samples).toEqual([]);
      expect(entry.reason).toMatch(
        /^Proven empty: equal on all \d+ (unit|person) listings read.*OS2mo 2\.4\.0 writes/,
      );
    }
    expect(proven.map((entry) => entry.operationId)).toEqual(
      expect.arrayContaining([
        'listOrgUnitAddresses',
        'listOrgUnitKles',
        'listEmployeeItUsers',
        'listEmployeeLeaves',
      ]),
    );

    // The records themselves are proven too; the reads GraphQL cannot answer say why.
    const status = Object.fromEntries(reads.map((entry) => [entry.operationId, entry.status]));
    expect(status).toMatchObject({
      getOrgUnit: 'proven',
      getEmployee: 'proven',
      listOrgUnits: 'proven',
      listEmployees: 'proven',
      getClass: 'proven',
      listOrgUnitChildren: 'proven',
      lookupCpr: 'proven',
      autocompleteEmployees: 'proven',
      getOrgUnitTree: 'proven',
      getOrgUnitAncestorTree: 'proven',
      listFacetChildren: 'proven',
      listClassChildren: 'proven',
      listOrgUnitVersions: 'proven',
      listEmployeeVersions: 'proven',
    });
    // Trees, class children and versions are proven on records, not on emptiness.
    for (const operationId of [
      'getOrgUnitTree',
      'getOrgUnitAncestorTree',
      'listFacetChildren',
      'listClassChildren',
      'listOrgUnitVersions',
      'listEmployeeVersions',
    ]) {
      const entry = reads.find((item) => item.operationId === operationId)!;
      expect(entry.samples.length, operationId).toBeGreaterThan(0);
      expect(entry.graphql, operationId).toMatch(/ancestors|top_level_classes|children|validities/);
    }
    expect(report.totals.empty).toBe(0);
    // Every read of the contract is covered and proven on the stand-in's data: the line a team shows to
    // switch /service off.
    expect(report.totals['not covered']).toBe(
      contractOperations.filter((operation) => notCovered[operation.operationId] !== undefined).length,
    );
    expect(reads.filter((item) => item.status !== 'proven').map((item) => item.operationId)).toEqual([]);
    expect(report.totals.proven).toBe(reads.length);
    expect(report.totals.different).toBe(0);
    // Writes are listed with the v30 mutations that replace them and the field mapping, never compared here.
    expect(report.endpoints.find((entry) => entry.operationId === 'mapOrgUnits')).toMatchObject({
      status: 'write',
      reason:
        'Replaced on /graphql/v30 by the mutation related_units_update; Service API names that differ: ' +
        'origin (path) → origin, destination[] → destination.',
      write: { mutations: ['related_units_update'] },
    });
    // A write whose v30 input reads a null as a clear the Service API cannot make says what the null gets (the
    // ledger's value facts): a unit's level or hierarchy refused where held, its time planning kept.
    expect(report.endpoints.find((entry) => entry.operationId === 'editDetails')).toMatchObject({
      reason: expect.stringContaining(
        'the Service API cannot clear in OrganisationUnitUpdateInput: org_unit_level, org_unit_hierarchy refused',
      ),
      write: {
        nulls: expect.arrayContaining([
          expect.objectContaining({
            coordinate: 'OrganisationUnitUpdateInput.time_planning',
            answer: 'kept',
          }),
        ]),
      },
    });
    for (const entry of report.endpoints.filter(
      (item) => item.method !== 'GET' && notCovered[item.operationId] === undefined,
    )) {
      expect(entry.write?.mutations.length, entry.operationId).toBeGreaterThan(0);
    }
  }, 60_000);

  it('prints what "covered" and "proven" mean, one row per endpoint and the totals', async () => {
    const { code, stdout, stderr, progress } = await compare(['--coverage']);
    expect(code, stderr).toBe(0);
    // On the way: the sample, the detail listings in batches, then each endpoint as it is done.
    const endpointCount = contractOperations.filter(isServiceOperation).length;
    expect(progress[0]).toBe('choosing the sample of units and people');
    expect(progress).toContainEqual(
      expect.stringMatching(/^detail listings of units 1–20 of \d+ \(\d+ detail types still unproven\)$/),
    );
    const endpoints = progress.filter((sentence) => / endpoints: /.test(sentence));
    expect(endpoints).toHaveLength(endpointCount);
    expect(endpoints.at(-1)).toMatch(new RegExp(`^${endpointCount} of ${endpointCount} endpoints: `));
    expect(stdout).toContain(
      "Covered: a GraphQL query on /graphql/v30 (OS2mo's GraphQL) answers the same records",
    );
    expect(stdout).toMatch(/\n {2}proven +GET \/service\/ou\/\{uuid\}\/details\/address +org_units\(filter/);
    expect(stdout).toMatch(
      /\n {2}proven +GET \/service\/e\/cpr_lookup\/ +cpr_lookup\(cpr_number: \$cpr_number\) \{ name \}/,
    );
    expect(stdout).toMatch(
      /GET \/service\/ou\/\{uuid\}\/details\/manager +org_units\(filter: \{uuids: \[\$uuid\]\}\) \{ objects \{ current \{ managers[^\n]*\n +Equal on [^\n]*\n +proven on v30 \(OS2mo's GraphQL\)/,
    );
    expect(stdout).toContain(
      "proven on v2, not v30: OS2mo has no place for it (`Query.cpr_lookup` is not in OS2mo's schema).",
    );
    expect(stdout).toMatch(new RegExp(`Proven on v30: \\d+ of ${contractReads().length} reads`));
    expect(stdout).toMatch(
      /Reads: \d+ endpoints — \d+ proven \(4 of them empty by the contract\), \d+ empty, 0 different, \d+ not covered\./,
    );
    expect(stdout).toMatch(
      /\n {2}write +POST \/service\/details\/edit +[^\n]*\n +Replaced on [^\n]*; time_planning kept \(not cleared\)\./,
    );
    expect(stdout).toContain('Verdict: EQUAL');
  }, 60_000);

  it('finds a difference in one detail type and exits 1', async () => {
    const unit = await firstUnitWithAddress();
    let change: DetailChange | undefined;
    const { code, stdout, stderr } = await compare(['--coverage', '--json'], async () => {
      change = await changeAddressValue(stack.legacyFetch, unit);
    });
    expect(code, stderr).toBe(1);
    const report = JSON.parse(stdout) as CoverageReport;
    const different = report.endpoints.filter((entry) => entry.status === 'different');
    expect(different.map((entry) => entry.operationId)).toEqual(['listOrgUnitAddresses']);
    expect(different[0]!.differences).toContainEqual({
      path: `org_units[${unit}].addresses[${change!.recordUuid}].value`,
      legacy: change!.before,
      graphql: change!.after,
    });
  }, 60_000);
});

describe('npm run compare -- --units: every detail listing', { timeout: coverageRunMs }, () => {
  it('compares each detail listing with its GraphQL field and reports the one that changed', async () => {
    const equal = await compare(['--units', referenceUnitUuids.join(',')]);
    expect(equal.code, equal.stderr).toBe(0);
    // One v30 query for what v30 serves, one v2 query for the types it does not (roles, …).
    expect(equal.stdout).toContain(
      `Detail listings: ${referenceUnitUuids.length * detailTypes.length} legacy requests in one round → 2 GraphQL requests`,
    );
    expect(equal.stdout).toMatch(/\/details\/related_unit +related_units +3 +\d+ +equal/);
    expect(equal.stdout).toContain('Detail verdict: EQUAL');

    const unit = await firstUnitWithAddress(referenceUnitUuids);
    let change: DetailChange | undefined;
    const changed = await compare(['--units', referenceUnitUuids.join(',')], async () => {
      change = await changeAddressValue(stack.legacyFetch, unit);
    });
    expect(changed.code, changed.stderr).toBe(1);
    // The reference view (managers) is still equal; only the address listing differs.
    expect(changed.stdout).toContain('Verdict: EQUAL');
    expect(changed.stdout).toMatch(/\/details\/address +addresses +3 +\d+ +DIFFERENT/);
    expect(changed.stdout).toMatch(/\/details\/manager +managers +3 +\d+ +equal/);
    expect(changed.stdout).toMatch(/Detail verdict: DIFFERENT — \d+ differences?:/);
    const row = changed.stdout
      .split('\n')
      .find((line) => line.includes(`org_units[${unit}].addresses[${change!.recordUuid}].value`));
    expect(row).toMatch(
      new RegExp(
        `"${change!.before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s+"${change!.after.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`,
      ),
    );
  }, 60_000);
});

describe('GET /migration/coverage (the workbench)', { timeout: coverageRunMs }, () => {
  it('gives the coverage report to an admin (RBAC is on), with the caller’s token', async () => {
    expect((await fetch(`${stack.gatewayUrl}/migration/coverage`)).status).toBe(401);
    const response = await fetch(`${stack.gatewayUrl}/migration/coverage`, {
      headers: { authorization: `Bearer ${await stack.token('alice')}` },
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as CoverageReport;
    expect(report.meaning).toMatch(/^Covered: /);
    expect(report.totals.different).toBe(0);
    const details = report.endpoints.filter(isDetailListing);
    expect(details).toHaveLength(22);
    expect(details.every((entry) => entry.status === 'proven' || entry.status === 'empty')).toBe(true);
    expect(JSON.stringify(report)).not.toContain(stack.legacyUrl);
  }, 60_000);
});
