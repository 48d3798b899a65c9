import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEntry } from './cli-support.js';
import { buildRealm } from './realm-builder.js';
import { startIdp } from './server.js';
import { devUsers } from './test-support.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'idp-server-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('startIdp', () => {
  it('listens on a free port, names itself after it at localhost, and closes', async () => {
    const idp = await startIdp();
    expect(idp.url).toBe(`http://localhost:${idp.port}`);
    expect(idp.issuer).toBe(`http://localhost:${idp.port}/auth/realms/org`);
    const health = await fetch(`${idp.url}/health`);
    expect(await health.json()).toEqual({ status: 'UP' });
    await idp.close();
    await expect(fetch(`${idp.url}/health`)).rejects.toThrow();
  });

  it('uses a given public URL for the issuer', async () => {
    const idp = await startIdp({ publicUrl: 'https://login.example/' });
    try {
      const response = await fetch(
        `http://127.0.0.1:${idp.port}/auth/realms/org/.well-known/openid-configuration`,
      );
      expect(((await response.json()) as Record<string, unknown>)['issuer']).toBe(
        'https://login.example/auth/realms/org',
      );
    } finally {
      await idp.close();
    }
  });
});

describe('npm run idp', () => {
  it('serves the realm file, prints its address, and stops on SIGTERM', async () => {
    const realmFile = join(dir, 'realm.json');
    const realm = buildRealm({
      users: devUsers(),
      rbacEnabled: true,
      integrationClientSecret: 'file-secret',
      payrollClientSecret: 'payroll-file-secret',
      devToolsClientSecret: 'dev-tools-file-secret',
      gatewayPublicUrl: 'http://localhost:8080',
    });
    await writeFile(realmFile, JSON.stringify(realm));
    const child = spawn(
      fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url)),
      [fileURLToPath(new URL('./main.ts', import.meta.url))],
      {
        env: { ...process.env, IDP_PORT: '0', IDP_REALM_FILE: realmFile, IDP_KEYS_DIR: join(dir, 'keys') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    let printed = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const match = /on (http:\/\/localhost:\d+)\n/.exec(printed);
        if (match) resolve(match[1]!);
      });
      child.on('close', () => reject(new Error(`the identity provider exited: ${printed}`)));
    });
    expect(printed).toContain('RBAC on');

    const response = await fetch(`${url}/auth/realms/org/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'integration',
        client_secret: 'file-secret',
      }),
    });
    expect(response.status).toBe(200);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('exits 1 with a message naming IDP_REALM_FILE when the file is unusable', async () => {
    const realmFile = join(dir, 'broken.json');
    await writeFile(realmFile, '{"realm": "org", "users": [{"username": "a", "realmRoles": ["admin"]}]}');
    const run = await runEntry('./main.ts', [], {
      IDP_PORT: '0',
      IDP_REALM_FILE: realmFile,
      IDP_KEYS_DIR: join(dir, 'keys'),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `IDP_REALM_FILE ${realmFile}: realm file: users[0] ("a").realmRoles names the role "admin"`,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
