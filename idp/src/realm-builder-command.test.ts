import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEntry } from './cli-support.js';
import { loadRealm } from './realm.js';
import { runRealmBuilder } from './realm-builder-command.js';

let dir: string;
let stdout: string;
let stderr: string;
const output = { stdout: (text: string) => (stdout += text), stderr: (text: string) => (stderr += text) };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'idp-realm-'));
  stdout = '';
  stderr = '';
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('npm run realm', () => {
  it('writes the realm file that the identity provider loads, readable only by its owner', async () => {
    const out = join(dir, 'nested', 'realm-org.json');
    expect(await runRealmBuilder(['--out', out], { IDP_RBAC_ENABLED: 'true' }, output)).toBe(0);
    expect(stderr).toMatch(/realm "org", 3 users, RBAC on/);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    const realm = loadRealm(JSON.parse(await readFile(out, 'utf8')));
    expect(realm.findUserForLogin('oscar')?.realmRoles).toEqual(['owner']);
  });

  it('writes to stdout with --out -, and notes roles left out without RBAC', async () => {
    expect(await runRealmBuilder(['--out', '-'], {}, output)).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ realm: 'org' });
    expect(stderr).toContain('the roles of alice, oscar are left out');
  });

  it('prints what is wrong with IDP_REALM_USERS and exits 1', async () => {
    const users = JSON.stringify([
      { username: 'bob', password: 'x', firstname: 'B', lastname: 'B', email: 'b@x.org', uuid: 'nope' },
    ]);
    expect(await runRealmBuilder(['--out', '-'], { IDP_REALM_USERS: users }, output)).toBe(1);
    expect(stderr).toBe('IDP_REALM_USERS[0] ("bob"): member "uuid" must be a UUID, got "nope"\n');
    expect(stdout).toBe('');
  });

  it('refuses unknown options with the usage', async () => {
    expect(await runRealmBuilder(['--output', 'x'], {}, output)).toBe(1);
    expect(stderr).toContain('Usage: npm run realm');
  });

  it('runs as a command: a bad variable gives its message and exit code 1, never a stack', async () => {
    const run = await runEntry('./realm-builder-cli.ts', ['--out', '-'], { IDP_REALM_USERS: '[1' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^IDP_REALM_USERS is not valid JSON: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
