import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCompareCommand } from '../gateway/src/comparison/cli/compare-command.js';
import { referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { changeManagerType, type ManagerTypeChange } from './legacy-edits.js';
import { repoRoot } from './processes.js';
import { startTestStack, type TestStack } from './stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.close());

/** `npm run compare` as a user runs it: a child process, its output and exit code (bounded in time). */
function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', 'compare', '--', ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm run compare did not finish:\n${stdout}\n${stderr}`));
    }, 60_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The command in-process, with the hook that runs between its legacy reads and its GraphQL query. */
async function compare(args: string[], betweenReads?: () => Promise<void>) {
  let stdout = '';
  let stderr = '';
  const code = await runCompareCommand(
    args,
    { IDP_URL: stack.idpUrl },
    { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) },
    { betweenReads },
  );
  return { code, stdout, stderr };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('npm run compare', () => {
  it("reports equal data and the saving (6 legacy requests → 1) for the specification's three units", async () => {
    const { code, stdout, stderr } = await runCli(
      ['--units', referenceUnitUuids.join(','), '--gateway', stack.gatewayUrl, '--user', 'alice'],
      { IDP_URL: stack.idpUrl },
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Verdict: EQUAL');
    expect(stdout).toContain('Saving: 6 legacy requests → 1 GraphQL request (83% fewer)');
    expect(stdout).toContain('6 legacy calls in 2 rounds');
    // The six requests by hand: three manager listings, then each manager's engagements.
    const legacyRows = stdout.split('\n').filter((line) => /^\s+[12]\s+GET\s+\/service\//.test(line));
    expect(
      legacyRows.map((line) =>
        line
          .replace(/[0-9a-f-]{36}/g, '{uuid}')
          .split(/\s+/)
          .slice(1, 4),
      ),
    ).toEqual([
      ...Array(3).fill(['1', 'GET', '/service/ou/{uuid}/details/manager']),
      ...Array(3).fill(['2', 'GET', '/service/e/{uuid}/details/engagement']),
    ]);
  });

  it('compares on v1 and for employees as well', async () => {
    const v1 = await compare([
      '--units',
      referenceUnitUuids.join(','),
      '--version',
      'v1',
      '--gateway',
      stack.gatewayUrl,
    ]);
    expect(v1.code, v1.stderr).toBe(0);
    expect(v1.stdout).toContain('GraphQL v1');

    const managers = (await (
      await stack.legacyFetch(`/service/ou/${referenceUnitUuids[0]}/details/manager`)
    ).json()) as { person: { uuid: string } }[];
    const employee = await compare([
      '--employees',
      managers[0]!.person.uuid,
      '--gateway',
      stack.gatewayUrl,
      '--json',
    ]);
    expect(employee.code, employee.stderr).toBe(0);
    const report = JSON.parse(employee.stdout);
    expect(report.verdict).toEqual({ equal: true, differences: [] });
    expect(report.legacy.calls.map((call: any) => call.path)).toEqual([
      `/service/e/${managers[0]!.person.uuid}/`,
      `/service/e/${managers[0]!.person.uuid}/details/engagement`,
    ]);
    // Asked on v30 by default, in OS2mo's shape: the page's objects are responses with `current`.
    expect(report.version).toBe('v30');
    expect(report.graphql.endpoint).toBe('/graphql/v30');
    expect(report.graphql.response.data.employees.objects[0].current.engagements.length).toBeGreaterThan(0);
  });

  it('exits 2 with a sentence when it cannot compare', async () => {
    const usage = await compare(['--gateway', stack.gatewayUrl]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Give either --units or --employees, or --coverage, or --usage.');

    const notUuid = await compare(['--units', 'unit-1']);
    expect(notUuid.code).toBe(2);
    expect(notUuid.stderr).toContain('--units: "unit-1" is not a UUID.');

    const badVersion = await compare(['--units', referenceUnitUuids[0]!, '--version', 'v7']);
    expect(badVersion.code).toBe(2);
    expect(badVersion.stderr).toContain('--version must be v1 or v2 or v30, got "v7".');

    const nowhere = `http://127.0.0.1:${await closedPort()}`;
    const unreachable = await compare([
      '--units',
      referenceUnitUuids[0]!,
      '--gateway',
      nowhere,
      '--token',
      'x',
    ]);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain(`Cannot compare: Cannot reach the gateway at ${nowhere}`);

    const refused = await compare([
      '--units',
      referenceUnitUuids[0]!,
      '--gateway',
      stack.gatewayUrl,
      '--token',
      'x',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /Cannot compare: GET \/service\/ou\/[0-9a-f-]+\/details\/manager answered 401/,
    );
    expect(refused.stdout).toBe('');
  });

  it('reports the difference and exits 1 when a legacy record changes between the two reads', async () => {
    const unit = referenceUnitUuids[1]!;
    let change: ManagerTypeChange | undefined;
    const { code, stdout, stderr } = await compare(
      ['--units', referenceUnitUuids.join(','), '--gateway', stack.gatewayUrl],
      async () => {
        change = await changeManagerType(stack.legacyFetch, unit);
      },
    );
    expect(code, stderr).toBe(1);
    expect(change!.before).not.toBe(change!.after);
    expect(stdout).toContain('Verdict: DIFFERENT — 1 difference:');
    const row = stdout
      .split('\n')
      .find((line) =>
        line.includes(`org_units[${unit}].managers[${change!.managerUuid}].manager_type.user_key`),
      );
    expect(row).toBeDefined();
    expect(row).toMatch(new RegExp(`"${change!.before}"\\s+"${change!.after}"`));

    // Both sides now read the changed record: equal again.
    const again = await compare(['--units', referenceUnitUuids.join(','), '--gateway', stack.gatewayUrl]);
    expect(again.code, again.stderr).toBe(0);
  });
});

describe('POST /migration/compare (the workbench)', () => {
  const post = async (body: unknown, authorization?: string) => {
    const response = await fetch(`${stack.gatewayUrl}/migration/compare`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('runs the comparison through the gateway with the caller’s token', async () => {
    const { status, body } = await post(
      { units: referenceUnitUuids, version: 'v2' },
      `Bearer ${await stack.token('alice')}`,
    );
    expect(status).toBe(200);
    expect(body.verdict).toEqual({ equal: true, differences: [] });
    expect(body.legacy.totals).toMatchObject({ requests: 6, rounds: 2 });
    expect(body.graphql).toMatchObject({
      endpoint: '/graphql/v2',
      status: 200,
      upstream: { requests: 6, rounds: 2 },
    });
    expect(body.legacy.calls[0]).toMatchObject({ method: 'GET', status: 200, body: expect.any(Array) });
    expect(JSON.stringify(body)).not.toContain(stack.legacyUrl);
  });

  it('needs a token and says what is wrong with a request', async () => {
    expect((await post({ units: referenceUnitUuids })).status).toBe(401);
    const authorization = `Bearer ${await stack.token('alice')}`;
    expect(await post({ units: ['unit-1'] }, authorization)).toEqual({
      status: 400,
      body: {
        error: true,
        status: 400,
        error_key: 'E_INVALID_INPUT',
        description: '"unit-1" is not a UUID.',
      },
    });
    expect((await post({ units: referenceUnitUuids, version: 'v9' }, authorization)).body.description).toBe(
      '"version" must be one of v1, v2, v30.',
    );
    expect((await post({}, authorization)).body.description).toBe(
      'Give either "units" or "employees": a list of UUIDs.',
    );
  });
});
