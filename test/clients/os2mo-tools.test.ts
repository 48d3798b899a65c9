import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oscar } from '../../openapi/contract-fixture.js';
import { sharedReadOnlyStack, type TestStack } from '../stack.js';
import { bearer, integrationToken, serviceSession, type ServiceSession } from './service-session.js';

/**
 * os2mo-tools (OS2mo/os2mo-tools at 958b210, its newest commit, `os2mo_tools/mo_api.py`, cited as
 * `mo_api.py:LINE`): the `Connector`, `OrgUnit` and `Employee` reads, through the gateway on the seeded stand-in.
 * `Connector.mo_get` (mo_api.py:97-106) GETs the URL with `params` and answers the JSON, or raises.
 */

let stack: TestStack;
let mo: ServiceSession;
let token: string;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  token = await integrationToken(stack);
  // An operator adds the bearer header to the Connector's requests.Session: see the first case.
  mo = serviceSession(stack, bearer(token));
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

async function moGet(path: string, params: Record<string, string> = {}): Promise<any> {
  const response = await mo.get(path, params);
  expect(response.status, `GET ${path}: ${response.text}`).toBe(200);
  return response.json;
}

describe('os2mo-tools through the gateway', () => {
  it('Connector(api_token=…) sends the token as a `session` header (mo_api.py:89-90): refused 401 without a bearer token', async () => {
    // The `session` header is OS2mo 1.x's SAML session token. OS2mo 2.4.0 reads only `Authorization: Bearer`
    // (the OAuth2 bearer dependency of backend/mora/auth/keycloak/oidc.py:19-28 at 2.4.0), and so does the gateway: the tool works once its
    // session carries the bearer header (`connector.session.headers["Authorization"] = "Bearer …"`), which
    // every other case here does.
    const legacy = serviceSession(stack, { session: token });
    const response = await legacy.get('o/');
    expect(response.status).toBe(401);
    expect(response.text).not.toContain(token);
  });

  it('Connector._get_org (mo_api.py:108-117): /o/, the first organisation', async () => {
    const organisations = await moGet('o/');
    expect(organisations.length).toBeGreaterThan(0);
    expect(organisations[0].uuid).toEqual(expect.any(String));
  });

  it('Connector.get_ous (mo_api.py:119-136): the total from ?limit=1, then pages of 1000, with and without root', async () => {
    const org = (await moGet('o/'))[0].uuid;
    const total = (await moGet(`o/${org}/ou/?limit=1`)).total as number;
    const all = [];
    for (let start = 0; start < total; start += 1000)
      all.push(...(await moGet(`o/${org}/ou/?limit=1000&start=${start}`)).items);
    expect(all).toHaveLength(total);
    const [root] = await moGet(`o/${org}/children`);
    const underRoot = (await moGet(`o/${org}/ou/?limit=1&root=${root.uuid}`)).total as number;
    expect(underRoot).toBeGreaterThan(0);
    expect(underRoot).toBeLessThanOrEqual(total);
    const rootItems = (await moGet(`o/${org}/ou/?limit=1000&start=0&root=${root.uuid}`)).items;
    expect(rootItems).toHaveLength(underRoot);
  });

  it('Connector.get_employees (mo_api.py:141-152): the total from ?limit=1, then pages of 1000', async () => {
    const org = (await moGet('o/'))[0].uuid;
    const total = (await moGet(`o/${org}/e/?limit=1`)).total as number;
    const people = (await moGet(`o/${org}/e/?limit=1000&start=0`)).items;
    expect(people).toHaveLength(Math.min(total, 1000));
  });

  it('OrgUnit (mo_api.py:66-72): json, children/ with its trailing slash, details/ and each detail present', async () => {
    const org = (await moGet('o/'))[0].uuid;
    const [root] = await moGet(`o/${org}/children`);
    const unit = await moGet(`ou/${root.uuid}/`);
    expect(unit.uuid).toBe(root.uuid);
    const children = await moGet(`ou/${root.uuid}/children/`);
    expect(children.length).toBeGreaterThan(0);
    // MOData.__getattr__ (mo_api.py:48-59): the details/ map says which details to read.
    const details = await moGet(`ou/${root.uuid}/details/`);
    expect(details).toMatchObject({
      address: true,
      engagement: expect.any(Boolean),
      manager: expect.any(Boolean),
    });
    for (const [name, has] of Object.entries(details)) {
      if (!has) continue;
      const records = await moGet(`ou/${root.uuid}/details/${name}`, { validity: 'present' });
      expect(Array.isArray(records), name).toBe(true);
    }
  });

  it('Employee (mo_api.py:75-81): json, details/ and each detail present', async () => {
    const person = await moGet(`e/${oscar}/`);
    expect(person.uuid).toBe(oscar);
    const details = await moGet(`e/${oscar}/details/`);
    expect(details.engagement).toBe(true);
    for (const [name, has] of Object.entries(details)) {
      if (!has) continue;
      const records = await moGet(`e/${oscar}/details/${name}`, { validity: 'present' });
      expect(records.length, name).toBeGreaterThan(0);
    }
  });
});
