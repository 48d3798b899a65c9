import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, exportSPKI, importJWK, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asAlgorithm,
  attackerKey,
  randomKid,
  realmSigningKey,
  segment,
  sign,
  unsignedToken,
  type ForgingKey,
} from './forge.js';
import type { LoopbackProxy } from './loopback-proxy.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * Forged, tampered, misused and malformed credentials, each sent to both interfaces. Every one must be
 * refused with 401 and a `WWW-Authenticate` challenge before the gateway calls the legacy service, and no
 * header that points at other keys (`jku`, `x5u`, `jwk`) may make the gateway fetch anything.
 */

let stack: TestStack;
let legacy: LoopbackProxy;
let keysDir: string;
let attacker: { url: string; hits: string[]; server: Server };
let f: Fixtures;

interface Fixtures {
  realm: ForgingKey;
  evil: ForgingKey;
  /** An attacker key that claims the realm key's kid. */
  impostor: ForgingKey;
  /** A real access token for alice, and its claims: forged tokens start from them. */
  access: string;
  claims: JWTPayload;
  /** A real access token for nora (no role). */
  noraAccess: string;
  idToken: string;
  refreshToken: string;
  now: number;
}

const graphqlQuery = '{ org_units(limit: 1) { objects { uuid name } } }';

async function idpTokens(username: string): Promise<Record<string, string>> {
  const response = await fetch(`${stack.idp.issuer}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'org-frontend',
      username,
      password: username,
      scope: 'openid',
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, string>;
}

beforeAll(async () => {
  keysDir = await mkdtemp(join(tmpdir(), 'forged-tokens-keys-'));
  // The development realm's access tokens carry `aud: account`, as Keycloak's do; the accepted clients
  // are the realm's own by default.
  stack = await startTestStack({
    legacyProxy: true,
    idpKeysDir: keysDir,
    gatewayEnv: { IDP_AUDIENCE: 'account' },
  });
  legacy = stack.legacyProxy!;

  const hits: string[] = [];
  const evil = await attackerKey();
  const server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [{ ...evil.publicJwk, kid: evil.kid, alg: 'RS256', use: 'sig' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  attacker = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };

  const realm = await realmSigningKey(keysDir);
  const alice = await idpTokens('alice');
  const nora = await idpTokens('nora');
  const claims = decodeJwt(alice.access_token!);
  f = {
    realm,
    evil,
    impostor: await attackerKey(realm.kid),
    access: alice.access_token!,
    claims,
    noraAccess: nora.access_token!,
    idToken: alice.id_token!,
    refreshToken: alice.refresh_token!,
    now: Math.floor(Date.now() / 1000),
  };
  expect(f.idToken).toBeTruthy();
  expect(f.refreshToken).toBeTruthy();
});

afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => attacker?.server.close(resolve));
  await rm(keysDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** node:http rather than fetch: a header may be sent as several lines, exactly as given. */
function send(path: string, method: string, headers: Record<string, string | string[]>, body?: string) {
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = request(`${stack.gateway.url}${path}`, { method, headers }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: JSON.parse(text) }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const interfaces = [
  {
    name: 'GET /service/o/',
    call: (headers: Record<string, string | string[]>, query = '') =>
      send(`/service/o/${query}`, 'GET', headers),
    expectRefusal: (answer: Answer) => {
      expect(answer.body).toEqual({
        error: true,
        status: 401,
        error_key: 'E_UNAUTHORIZED',
        description: expect.any(String),
      });
    },
  },
  {
    name: 'POST /graphql/v2',
    call: (headers: Record<string, string | string[]>, query = '') =>
      send(
        `/graphql/v2${query}`,
        'POST',
        { ...headers, 'content-type': 'application/json' },
        JSON.stringify({ query: graphqlQuery }),
      ),
    expectRefusal: (answer: Answer) => {
      expect(answer.body).toEqual({
        errors: [{ message: expect.any(String), extensions: { code: 'UNAUTHENTICATED' } }],
      });
    },
  },
];

/** Alice's real claims with changes: signed with the realm's own key, only the change can make it fail. */
const claimsWith = (changes: Record<string, unknown>): JWTPayload => {
  const claims: Record<string, unknown> = { ...f.claims, ...changes };
  for (const [name, value] of Object.entries(changes)) if (value === undefined) delete claims[name];
  return claims;
};

const bearer = (token: string) => `Bearer ${token}`;
const parts = (token: string) => token.split('.') as [string, string, string];

interface ForgedCase {
  name: string;
  /** The `Authorization` header (several lines for an array), or none. */
  authorization: () => Promise<string | string[] | undefined> | string | string[] | undefined;
  /** Appended to the path, for credentials sent elsewhere than the header. */
  query?: () => string;
}

const cases: ForgedCase[] = [
  // Algorithm attacks.
  {
    name: 'alg none without a signature',
    authorization: () => bearer(unsignedToken(f.claims, { alg: 'none', typ: 'JWT', kid: f.realm.kid })),
  },
  {
    name: 'alg none with a signature segment',
    authorization: () =>
      bearer(unsignedToken(f.claims, { alg: 'none', typ: 'JWT', kid: f.realm.kid }, parts(f.access)[2])),
  },
  {
    name: 'alg "nOnE" (case games)',
    authorization: () => bearer(unsignedToken(f.claims, { alg: 'nOnE', kid: f.realm.kid }, segment('x'))),
  },
  {
    name: 'HS256 signed with the public key (PEM) as the secret',
    authorization: async () => {
      const publicKey = await importJWK(f.realm.publicJwk, 'RS256', { extractable: true });
      const pem = await exportSPKI(publicKey as CryptoKey);
      return bearer(
        await sign(
          f.claims,
          { kid: f.realm.kid, privateKey: new TextEncoder().encode(pem) },
          { alg: 'HS256' },
        ),
      );
    },
  },
  {
    name: 'HS256 signed with the public JWK (JSON) as the secret',
    authorization: async () =>
      bearer(
        await sign(
          f.claims,
          { kid: f.realm.kid, privateKey: new TextEncoder().encode(JSON.stringify(f.realm.publicJwk)) },
          { alg: 'HS256' },
        ),
      ),
  },
  {
    name: 'RS512 with the real key (the token picks the algorithm)',
    authorization: async () =>
      bearer(
        await sign(
          f.claims,
          { kid: f.realm.kid, privateKey: await asAlgorithm(f.realm, 'RS512') },
          { alg: 'RS512' },
        ),
      ),
  },
  {
    name: 'PS256 with the real key',
    authorization: async () =>
      bearer(
        await sign(
          f.claims,
          { kid: f.realm.kid, privateKey: await asAlgorithm(f.realm, 'PS256') },
          { alg: 'PS256' },
        ),
      ),
  },
  // Key selection attacks.
  {
    name: 'unknown kid',
    authorization: async () => bearer(await sign(f.claims, { ...f.evil, kid: randomKid() })),
  },
  {
    name: 'no kid (signed with the real key)',
    authorization: async () => bearer(await sign(f.claims, { privateKey: f.realm.privateKey })),
  },
  {
    name: 'empty kid (signed with the real key)',
    authorization: async () => bearer(await sign(f.claims, { kid: '', privateKey: f.realm.privateKey })),
  },
  {
    name: 'a key not in the JWKS, carrying the real kid',
    authorization: async () => bearer(await sign(f.claims, f.impostor)),
  },
  {
    name: "jku header pointing at the attacker's JWKS",
    authorization: async () => bearer(await sign(f.claims, f.evil, { jku: `${attacker.url}/jwks.json` })),
  },
  {
    name: "jku header pointing at the attacker's JWKS, with the real kid",
    authorization: async () => bearer(await sign(f.claims, f.impostor, { jku: `${attacker.url}/jwks.json` })),
  },
  {
    name: "x5u header pointing at the attacker's certificate",
    authorization: async () => bearer(await sign(f.claims, f.impostor, { x5u: `${attacker.url}/cert.pem` })),
  },
  {
    name: "embedded jwk header with the attacker's key",
    authorization: async () => bearer(await sign(f.claims, f.evil, { jwk: f.evil.publicJwk })),
  },
  {
    name: "embedded jwk header with the attacker's key and the real kid",
    authorization: async () =>
      bearer(await sign(f.claims, f.impostor, { jwk: { ...f.impostor.publicJwk, kid: f.realm.kid } })),
  },
  {
    name: 'embedded x5c certificate chain, with the real kid',
    authorization: async () =>
      bearer(
        await sign(f.claims, f.impostor, { x5c: [Buffer.from('not a certificate').toString('base64')] }),
      ),
  },
  // Tampering.
  {
    name: 'payload changed after signing (nora made admin)',
    authorization: () => {
      const [header, payload, signature] = parts(f.noraAccess);
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      return bearer(`${header}.${segment({ ...claims, realm_access: { roles: ['admin'] } })}.${signature}`);
    },
  },
  {
    name: "another token's signature",
    authorization: () => {
      const [header, payload] = parts(f.noraAccess);
      return bearer(`${header}.${payload}.${parts(f.access)[2]}`);
    },
  },
  {
    name: 'unknown critical header parameter',
    authorization: async () =>
      bearer(
        await sign(
          f.claims,
          f.realm,
          { crit: ['urn:example:x'], 'urn:example:x': 1 },
          { 'urn:example:x': true },
        ),
      ),
  },
  // Claims, each signed with the realm's real key.
  {
    name: 'expired beyond the leeway',
    authorization: async () =>
      bearer(await sign(claimsWith({ iat: f.now - 600, exp: f.now - 120 }), f.realm)),
  },
  {
    name: 'nbf in the future',
    authorization: async () => bearer(await sign(claimsWith({ nbf: f.now + 600 }), f.realm)),
  },
  { name: 'no exp', authorization: async () => bearer(await sign(claimsWith({ exp: undefined }), f.realm)) },
  { name: 'no sub', authorization: async () => bearer(await sign(claimsWith({ sub: undefined }), f.realm)) },
  {
    name: 'wrong issuer',
    authorization: async () =>
      bearer(await sign(claimsWith({ iss: 'http://idp.attacker.example/auth/realms/org' }), f.realm)),
  },
  {
    name: 'issuer with a trailing slash',
    authorization: async () => bearer(await sign(claimsWith({ iss: `${stack.idp.issuer}/` }), f.realm)),
  },
  {
    name: 'issuer of another realm on the same provider',
    authorization: async () =>
      bearer(await sign(claimsWith({ iss: stack.idp.issuer.replace(/\/org$/, '/master') }), f.realm)),
  },
  { name: 'typ ID claim', authorization: async () => bearer(await sign(claimsWith({ typ: 'ID' }), f.realm)) },
  {
    name: 'typ Refresh claim',
    authorization: async () => bearer(await sign(claimsWith({ typ: 'Refresh' }), f.realm)),
  },
  {
    name: 'no typ claim',
    authorization: async () => bearer(await sign(claimsWith({ typ: undefined }), f.realm)),
  },
  {
    name: 'iat in the future beyond the leeway',
    authorization: async () =>
      bearer(await sign(claimsWith({ iat: f.now + 600, exp: f.now + 900 }), f.realm)),
  },
  {
    name: 'an absurd lifetime (exp ten years after iat)',
    authorization: async () =>
      bearer(await sign(claimsWith({ iat: f.now, exp: f.now + 10 * 365 * 86_400 }), f.realm)),
  },
  {
    name: 'aud of another service',
    authorization: async () => bearer(await sign(claimsWith({ aud: 'payroll' }), f.realm)),
  },
  {
    name: 'aud as a list without the accepted audience',
    authorization: async () => bearer(await sign(claimsWith({ aud: ['payroll', 'broker'] }), f.realm)),
  },
  { name: 'no aud', authorization: async () => bearer(await sign(claimsWith({ aud: undefined }), f.realm)) },
  {
    name: 'azp of a client the realm does not own',
    authorization: async () => bearer(await sign(claimsWith({ azp: 'admin-cli' }), f.realm)),
  },
  { name: 'no azp', authorization: async () => bearer(await sign(claimsWith({ azp: undefined }), f.realm)) },
  { name: 'a real ID token from the identity provider', authorization: () => bearer(f.idToken) },
  { name: 'a real refresh token from the identity provider', authorization: () => bearer(f.refreshToken) },
  // Malformed tokens.
  {
    name: 'standard base64 with padding instead of base64url',
    authorization: () =>
      bearer(
        parts(f.access)
          .map((part) => Buffer.from(part, 'base64url').toString('base64'))
          .join('.'),
      ),
  },
  { name: 'characters outside base64url', authorization: () => bearer(`${parts(f.access)[0]}.e30*.c2ln`) },
  {
    name: 'header segment that is not JSON',
    authorization: () => bearer(`${segment('not json')}.${parts(f.access)[1]}.${parts(f.access)[2]}`),
  },
  { name: 'two segments only', authorization: () => bearer(parts(f.access).slice(0, 2).join('.')) },
  {
    name: 'five segments (JWE shape)',
    authorization: () => bearer(`${f.access}.${segment('iv')}.${segment('tag')}`),
  },
  {
    name: 'oversized token (over 8 KiB, signed with the real key)',
    authorization: async () => {
      const token = await sign(claimsWith({ padding: 'x'.repeat(9 * 1024) }), f.realm);
      expect(token.length).toBeGreaterThan(8 * 1024);
      return bearer(token);
    },
  },
  // The header itself.
  { name: 'no Authorization header', authorization: () => undefined },
  { name: 'Basic scheme', authorization: () => `Basic ${Buffer.from('alice:alice').toString('base64')}` },
  { name: 'Token scheme with a valid token', authorization: () => `Token ${f.access}` },
  { name: 'a valid token without a scheme', authorization: () => f.access },
  { name: '"Bearer" without a token', authorization: () => 'Bearer' },
  { name: 'two spaces after Bearer', authorization: () => `Bearer  ${f.access}` },
  { name: 'a tab after Bearer', authorization: () => `Bearer\t${f.access}` },
  { name: 'a space inside the token', authorization: () => `Bearer ${f.access.replace('.', '. ')}` },
  { name: 'two tokens in one header', authorization: () => `Bearer ${f.access} ${f.access}` },
  {
    name: 'two Bearer credentials, comma-separated',
    authorization: () => `Bearer ${f.access}, Bearer ${f.access}`,
  },
  { name: 'two Authorization header lines', authorization: () => [bearer(f.access), bearer(f.noraAccess)] },
  {
    name: 'access_token in the query string (RFC 6750 §2.3, not supported)',
    authorization: () => undefined,
    query: () => `?access_token=${f.access}`,
  },
];

describe.each(interfaces)('$name', (api) => {
  it('accepts the real token and a token forged with the real key: the cases below differ only in their flaw', async () => {
    for (const authorization of [bearer(f.access), bearer(await sign(claimsWith({}), f.realm))]) {
      const before = legacy.count();
      const answer = await api.call({ authorization });
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toBeUndefined();
      expect(legacy.count()).toBeGreaterThan(before);
    }
  });

  it('accepts the accepted audience in a list, a token of the integration client, and iat within the leeway', async () => {
    for (const changes of [
      { aud: ['broker', 'account'] },
      { azp: 'integration' },
      { iat: f.now + 10, exp: f.now + 310 },
    ]) {
      const answer = await api.call({ authorization: bearer(await sign(claimsWith(changes), f.realm)) });
      expect(answer.status, JSON.stringify(changes)).toBe(200);
    }
  });

  it('accepts the scheme in any case ("bearer"), as RFC 7235 makes auth schemes case-insensitive', async () => {
    const answer = await api.call({ authorization: `bearer ${f.access}` });
    expect(answer.status).toBe(200);
  });

  it.each(cases)('refuses $name with 401 and no legacy call', async (forged) => {
    const authorization = await forged.authorization();
    const before = legacy.count();
    const answer = await api.call(authorization === undefined ? {} : { authorization }, forged.query?.());
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="org"/);
    api.expectRefusal(answer);
    expect(answer.body).not.toHaveProperty('data');
    expect(legacy.count()).toBe(before);
  });
});

describe('the media type of a GraphQL 401', () => {
  const refused = (accept?: string) =>
    send(
      '/graphql/v2',
      'POST',
      { 'content-type': 'application/json', ...(accept === undefined ? {} : { accept }) },
      JSON.stringify({ query: graphqlQuery }),
    );

  it.each([
    'application/graphql-response+json',
    'application/graphql-response+json, application/json;q=0.9',
    'application/json;q=0.9, application/graphql-response+json',
  ])('is application/graphql-response+json when the client accepts it (%s)', async (accept) => {
    const answer = await refused(accept);
    expect(answer.status).toBe(401);
    expect(answer.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    expect(answer.body).toEqual({
      errors: [{ message: expect.any(String), extensions: { code: 'UNAUTHENTICATED' } }],
    });
  });

  it.each([undefined, 'application/json', '*/*', 'application/graphql-response+json;q=0, application/json'])(
    'stays application/json otherwise (Accept: %s)',
    async (accept) => {
      const answer = await refused(accept);
      expect(answer.status).toBe(401);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
    },
  );

  it('leaves /service bodies as application/json whatever the client accepts', async () => {
    const answer = await send('/service/o/', 'GET', { accept: 'application/graphql-response+json' });
    expect(answer.status).toBe(401);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('headers that point at other keys', () => {
  it('made the gateway fetch nothing from the attacker', () => {
    expect(attacker.hits).toEqual([]);
  });
});
