import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runEntry } from './cli-support.js';
import { startIdp, type RunningIdp } from './server.js';
import { identityProviderUrl, runTokenCommand } from './token-command.js';

let idp: RunningIdp;
let stdout: string;
let stderr: string;
const output = { stdout: (text: string) => (stdout += text), stderr: (text: string) => (stderr += text) };

beforeAll(async () => {
  idp = await startIdp({ rbacEnabled: true });
});

afterAll(async () => {
  await idp.close();
});

beforeEach(() => {
  stdout = '';
  stderr = '';
});

describe('npm run token', () => {
  it("prints only alice's access token (password grant, password defaulting to the username)", async () => {
    expect(await runTokenCommand(['alice'], { IDP_URL: idp.url }, output)).toBe(0);
    expect(stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    expect(decodeJwt(stdout.trim())).toMatchObject({
      preferred_username: 'alice',
      azp: 'org-frontend',
      iss: idp.issuer,
    });
    expect(stderr).toBe('');
  });

  it('uses client credentials with --client integration', async () => {
    expect(await runTokenCommand(['--client', 'integration'], { IDP_URL: idp.url }, output)).toBe(0);
    expect(decodeJwt(stdout.trim())).toMatchObject({
      azp: 'integration',
      preferred_username: 'service-account-integration',
    });
    stdout = '';
    // The second integration's development secret is its default.
    expect(await runTokenCommand(['--client', 'payroll'], { IDP_URL: idp.url }, output)).toBe(0);
    expect(decodeJwt(stdout.trim())).toMatchObject({
      azp: 'payroll',
      preferred_username: 'service-account-payroll',
    });
    stdout = '';
    // So is the development tools' client's.
    expect(await runTokenCommand(['--client', 'dev-tools'], { IDP_URL: idp.url }, output)).toBe(0);
    expect(decodeJwt(stdout.trim())).toMatchObject({
      azp: 'dev-tools',
      preferred_username: 'service-account-dev-tools',
    });
  });

  it("shows Keycloak's error description and exits 1 on a refused request", async () => {
    expect(await runTokenCommand(['alice', '--password', 'wrong'], { IDP_URL: idp.url }, output)).toBe(1);
    expect(stderr).toBe('Token request failed: Invalid user credentials (invalid_grant, HTTP 401)\n');
    stderr = '';
    expect(
      await runTokenCommand(['--client', 'integration', '--secret', 'wrong'], { IDP_URL: idp.url }, output),
    ).toBe(1);
    expect(stderr).toContain('Invalid client or Invalid client credentials');
    expect(stdout).toBe('');
  });

  it('says when the identity provider cannot be reached', async () => {
    const closed = await startIdp();
    await closed.close();
    expect(await runTokenCommand(['alice'], { IDP_URL: closed.url }, output)).toBe(1);
    expect(stderr).toBe(
      `Cannot reach the identity provider at ${closed.url} (ECONNREFUSED). Start it with "npm run idp", or name it with --idp or IDP_URL.\n`,
    );
  });

  it('finds the identity provider from --idp, IDP_URL, IDP_PUBLIC_URL or IDP_PORT, as npm start runs it', async () => {
    for (const [argv, env] of [
      [['alice', '--idp', idp.url], { IDP_URL: 'http://localhost:1' }],
      [['alice'], { IDP_URL: idp.url, IDP_PUBLIC_URL: 'http://localhost:1' }],
      [['alice'], { IDP_PUBLIC_URL: idp.url, IDP_PORT: '1' }],
      [['alice'], { IDP_PORT: String(idp.port) }],
    ] as Array<[string[], Record<string, string>]>) {
      stdout = '';
      expect(await runTokenCommand(argv, env, output), JSON.stringify([argv, env])).toBe(0);
      expect(decodeJwt(stdout.trim())['iss']).toBe(idp.issuer);
    }
    expect(identityProviderUrl(undefined, {})).toBe('http://localhost:8081');
    expect(() => identityProviderUrl(undefined, { IDP_PORT: 'x' })).toThrow('IDP_PORT must be a port number');
    expect(() => identityProviderUrl('localhost:9', {})).toThrow('--idp must be an absolute http(s) URL');
  });

  it('prints the usage without a user or client', async () => {
    expect(await runTokenCommand([], {}, output)).toBe(1);
    expect(stderr).toContain('Usage:');
  });

  it('runs as a command and prints just the token', async () => {
    const run = await runEntry('./token-cli.ts', ['nora'], { IDP_URL: idp.url });
    expect(run.code).toBe(0);
    expect(decodeJwt(run.stdout.trim())['preferred_username']).toBe('nora');
  });
});
