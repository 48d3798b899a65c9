import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { organisationUuid, referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { startTestStack, type TestStack } from './stack.js';
import { clientToken } from './idp-tokens.js';

const day = 86_400_000;
const start = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const brownout = { from: start + day, to: start + day + 3_600_000 };
const unit = referenceUnitUuids[0]!;

/** A migration team's file: one endpoint deprecated with a brownout, one retired, v1 deprecated alike. */
const folder = mkdtempSync(join(tmpdir(), 'retiring-service-'));
const configFile = join(folder, 'deprecation.yaml');
writeFileSync(
  configFile,
  `
exemptClients: [integration]
endpoints:
  - endpoint: GET /service/ou/{uuid}/details/manager
    deprecated: "${iso(start - 30 * day)}"
    sunset: "${iso(start + 60 * day)}"
    brownouts:
      - { from: "${iso(brownout.from)}", to: "${iso(brownout.to)}" }
  - endpoint: GET /service/o/{org}/it/
    deprecated: "${iso(start - 90 * day)}"
    retired: true
versions:
  - version: v1
    deprecated: "${iso(start - 30 * day)}"
    brownouts:
      - { from: "${iso(brownout.from)}", to: "${iso(brownout.to)}" }
`,
);

let offsetMs = 0;
let stack: TestStack;
/** Tokens of a browser user (azp org-frontend) and of the integration client (azp integration, exempt). */
const tokens = { user: '', integration: '' };
beforeAll(async () => {
  stack = await startTestStack({
    gatewayEnv: { DEPRECATION_CONFIG: configFile },
    clock: () => new Date(Date.now() + offsetMs),
  });
  tokens.user = await stack.token('alice');
  tokens.integration = await clientToken(stack.idp.issuer, 'integration');
});
afterAll(() => stack.close());
beforeEach(() => {
  offsetMs = 0;
});

const service = (path: string, who: keyof typeof tokens = 'user') =>
  fetch(`${stack.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${tokens[who]}` } });
const graphql = (version: string, who: keyof typeof tokens = 'user') =>
  fetch(`${stack.gatewayUrl}/graphql/${version}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ org { name } }' }),
  });

describe('retiring /service: deprecation, brownout, switch-off (DEPRECATION_CONFIG)', () => {
  it('signals the deprecated endpoint and version only', async () => {
    const deprecated = await service(`/service/ou/${unit}/details/manager`);
    expect(deprecated.status).toBe(200);
    expect(deprecated.headers.get('deprecation')).toBe(`@${Math.floor((start - 30 * day) / 1000)}`);
    expect(deprecated.headers.get('sunset')).toBe(new Date(start + 60 * day).toUTCString());
    expect(deprecated.headers.get('link')).toBe(
      `<${stack.gatewayUrl}/docs/migration>; rel="deprecation"; type="text/html", <${stack.gatewayUrl}/docs/migration>; rel="sunset"; type="text/html"`,
    );
    const other = await service(`/service/ou/${unit}/details/engagement`);
    expect(other.status).toBe(200);
    expect(other.headers.get('deprecation')).toBeNull();

    const v1 = await graphql('v1');
    expect(v1.status).toBe(200);
    expect(v1.headers.get('deprecation')).not.toBeNull();
    expect(
      ((await v1.json()) as { extensions?: { deprecations?: unknown[] } }).extensions?.deprecations,
    ).toEqual([expect.objectContaining({ kind: 'version', version: 'v1', replacement: '/graphql/v30' })]);
    // v2 is deprecated by default once OS2mo's versions are served; v30, the newest, is not.
    expect((await graphql('v2')).headers.get('deprecation')).not.toBeNull();
    expect((await graphql('v30')).headers.get('deprecation')).toBeNull();
  });

  it('answers 410 during the brownout, except to the exempt client; the rest keeps working', async () => {
    offsetMs = day + 30 * 60_000;
    const refused = await service(`/service/ou/${unit}/details/manager`);
    expect(refused.status).toBe(410);
    expect(await refused.json()).toMatchObject({
      error: true,
      status: 410,
      error_key: 'E_GONE',
      reason: 'brownout',
      // v30's query (OS2mo's shape, the one the coverage report proves) first, then the deprecated v2 one.
      replacement: expect.stringMatching(
        /^the GraphQL query `org_units\(filter: \{uuids: \[\$uuid\]\}\) \{ objects \{ current \{ managers_response \{ objects \{ current \{ .*` on \/graphql\/v30 \(or, deprecated, the GraphQL query `org_units\(filter: \{ uuids: \[\$uuid\] \}\) \{ objects \{ managers \{ .*` on \/graphql\/v2\)$/,
      ),
      sunset: iso(start + 60 * day),
      brownout_ends: iso(brownout.to),
    });
    expect((await service(`/service/ou/${unit}/details/manager`, 'integration')).status).toBe(200);
    expect((await service(`/service/ou/${unit}/details/engagement`)).status).toBe(200);

    const v1 = await graphql('v1');
    expect(v1.status).toBe(410);
    expect(
      ((await v1.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code,
    ).toBe('GONE');
    expect((await graphql('v1', 'integration')).status).toBe(200);
    expect((await graphql('v2')).status).toBe(200);
  });

  it('serves normally again once the window has passed', async () => {
    offsetMs = day + 2 * 3_600_000;
    expect((await service(`/service/ou/${unit}/details/manager`)).status).toBe(200);
    expect((await graphql('v1')).status).toBe(200);
  });

  it('answers the retired endpoint 410 always, to every client, while the rest of /service works', async () => {
    for (const who of ['user', 'integration'] as const) {
      const gone = await service(`/service/o/${organisationUuid}/it/`, who);
      expect(gone.status).toBe(410);
      expect(await gone.json()).toMatchObject({
        error_key: 'E_GONE',
        reason: 'retired',
        replacement:
          'the GraphQL query `itsystems { objects { current { uuid name user_key system_type } } }` on /graphql/v30 ' +
          '(or, deprecated, the GraphQL query `itsystems { objects { uuid name user_key system_type } }` on /graphql/v2)',
      });
    }
    expect((await service('/service/o/')).status).toBe(200);
    expect((await service(`/service/o/${organisationUuid}/f/`)).status).toBe(200);
  });
});

describe('a bad deprecation file', () => {
  it('stops the gateway at start with a message naming DEPRECATION_CONFIG and the entry', async () => {
    const bad = join(folder, 'unserved-version.yaml');
    writeFileSync(bad, 'versions: [{ version: v7, deprecated: 2026-09-01 }]');
    await expect(startTestStack({ gatewayEnv: { DEPRECATION_CONFIG: bad } })).rejects.toThrow(
      'DEPRECATION_CONFIG: versions[0].version: v7 is not served (served: v1, v2, v21, v22, v23, v24, v25, v26, v27, v28, v29, v30)',
    );
  });
});
