import { describe, expect, it } from 'vitest';
import { KEYCLOAK_BRUTE_FORCE_DEFAULTS, LoginThrottle } from './brute-force.js';
import { loadRealm } from './realm.js';
import { buildRealm } from './realm-builder.js';
import { devUsers, OIDC, openLoginForm, testIdp, TestClock, type TestIdp } from './test-support.js';

// Password guessing against the development identity provider, with Keycloak's brute-force detector.

const ATTACKER = '203.0.113.7';
const NEIGHBOUR = '198.51.100.9';

/** A password grant as a client at `address` sends it. */
async function guess(idp: TestIdp, username: string, password: string, address = ATTACKER) {
  const response = await idp.app.request(
    `${OIDC}/token`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', client_id: 'org-frontend', username, password }),
    },
    { incoming: { socket: { remoteAddress: address } } },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const REFUSED = {
  status: 401,
  body: { error: 'invalid_grant', error_description: 'Invalid user credentials' },
};

/** `count` wrong passwords for `username`, two seconds apart (slower than Keycloak's quick-login check). */
async function wrongPasswords(idp: TestIdp, username: string, count: number, address = ATTACKER) {
  for (let index = 0; index < count; index += 1) {
    expect(await guess(idp, username, `wrong-${index}`, address)).toEqual(REFUSED);
    idp.clock.advanceSeconds(2);
  }
}

describe('the realm file turns on brute-force detection', () => {
  it('writes Keycloak’s brute-force members, and the identity provider reads them back', () => {
    const json = buildRealm({
      users: devUsers(),
      rbacEnabled: true,
      integrationClientSecret: 'integration-dev-secret',
      payrollClientSecret: 'payroll-dev-secret',
      devToolsClientSecret: 'dev-tools-dev-secret',
      gatewayPublicUrl: 'http://localhost:8080',
    });
    expect(json).toMatchObject({
      bruteForceProtected: true,
      permanentLockout: false,
      maxTemporaryLockouts: 0,
      bruteForceStrategy: 'MULTIPLE',
      failureFactor: 5,
      waitIncrementSeconds: 60,
      quickLoginCheckMilliSeconds: 1000,
      minimumQuickLoginWaitSeconds: 60,
      maxFailureWaitSeconds: 900,
      maxDeltaTimeSeconds: 43_200,
    });
    expect(loadRealm(json).bruteForce).toEqual({
      bruteForceProtected: true,
      permanentLockout: false,
      bruteForceStrategy: 'MULTIPLE',
      failureFactor: 5,
      waitIncrementSeconds: 60,
      quickLoginCheckMilliSeconds: 1000,
      minimumQuickLoginWaitSeconds: 60,
      maxFailureWaitSeconds: 900,
      maxDeltaTimeSeconds: 43_200,
    });
  });

  it('leaves detection off for a realm file without bruteForceProtected, as Keycloak does', () => {
    const realm = loadRealm({ realm: 'org' });
    expect(realm.bruteForce).toEqual(KEYCLOAK_BRUTE_FORCE_DEFAULTS);
  });

  it('refuses a brute-force member of the wrong type, naming it', () => {
    expect(() => loadRealm({ realm: 'org', failureFactor: '5' })).toThrow(
      'realm file: failureFactor must be a positive integer, got string',
    );
  });
});

describe('per user', () => {
  it('locks the account for 60 s after 5 failures: even the right password gets the wrong-password answer', async () => {
    const idp = await testIdp();
    await wrongPasswords(idp, 'alice', 5);
    expect(await guess(idp, 'alice', 'alice')).toEqual(REFUSED);
    // From another address too: the lock is on the account.
    expect(await guess(idp, 'alice', 'alice', NEIGHBOUR)).toEqual(REFUSED);
    // Other accounts are unaffected.
    expect((await guess(idp, 'oscar', 'oscar')).status).toBe(200);

    idp.clock.advanceSeconds(50);
    expect(await guess(idp, 'alice', 'alice')).toEqual(REFUSED);
    idp.clock.advanceSeconds(10);
    expect((await guess(idp, 'alice', 'alice')).status).toBe(200);
  });

  it('does not count guesses made while locked, and a success clears the count', async () => {
    const idp = await testIdp();
    await wrongPasswords(idp, 'alice', 5);
    for (let index = 0; index < 20; index += 1) expect(await guess(idp, 'alice', 'x')).toEqual(REFUSED);
    idp.clock.advanceSeconds(60);
    expect((await guess(idp, 'alice', 'alice')).status).toBe(200);
    // Counting starts again from zero: four more failures do not lock.
    await wrongPasswords(idp, 'alice', 4);
    expect((await guess(idp, 'alice', 'alice')).status).toBe(200);
  });

  it('locks again at every failure past the factor, and longer at each multiple (MULTIPLE): 120 s at 10', async () => {
    const idp = await testIdp();
    await wrongPasswords(idp, 'alice', 5);
    for (let failure = 6; failure <= 9; failure += 1) {
      idp.clock.advanceSeconds(60);
      expect(await guess(idp, 'alice', `wrong-${failure}`)).toEqual(REFUSED);
      expect(await guess(idp, 'alice', 'alice')).toEqual(REFUSED);
    }
    idp.clock.advanceSeconds(60);
    expect(await guess(idp, 'alice', 'wrong-10')).toEqual(REFUSED);
    idp.clock.advanceSeconds(119);
    expect(await guess(idp, 'alice', 'alice')).toEqual(REFUSED);
    idp.clock.advanceSeconds(1);
    expect((await guess(idp, 'alice', 'alice')).status).toBe(200);
  });

  it('locks for 60 s after two failures within a second (quick-login check)', async () => {
    const idp = await testIdp();
    expect(await guess(idp, 'alice', 'a')).toEqual(REFUSED);
    expect(await guess(idp, 'alice', 'b')).toEqual(REFUSED);
    expect(await guess(idp, 'alice', 'alice')).toEqual(REFUSED);
    idp.clock.advanceSeconds(60);
    expect((await guess(idp, 'alice', 'alice')).status).toBe(200);
  });

  it('throttles the login form the same way, with the same message', async () => {
    const idp = await testIdp();
    await wrongPasswords(idp, 'alice', 5);
    const { fields: form, cookie } = await openLoginForm(idp);
    form.set('username', 'alice');
    form.set('password', 'alice');
    const response = await idp.app.request(
      `${OIDC}/auth`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
        body: form,
      },
      { incoming: { socket: { remoteAddress: NEIGHBOUR } } },
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Invalid username or password.');
  });
});

describe('per client address', () => {
  it('locks an address that sprays guesses over many usernames, and only that address', async () => {
    const idp = await testIdp();
    // 25 failures (5 × the failure factor), each on a different unknown or known account.
    for (let index = 0; index < 25; index += 1) {
      expect(await guess(idp, index % 5 === 0 ? 'nora' : `user${index}`, 'guess')).toEqual(REFUSED);
      idp.clock.advanceSeconds(2);
    }
    expect(await guess(idp, 'oscar', 'oscar')).toEqual(REFUSED);
    expect((await guess(idp, 'oscar', 'oscar', NEIGHBOUR)).status).toBe(200);
    idp.clock.advanceSeconds(60);
    expect((await guess(idp, 'oscar', 'oscar')).status).toBe(200);
  });
});

describe('unknown users and wrong passwords', () => {
  it('answer alike: status, headers that matter and body', async () => {
    const idp = await testIdp();
    const answer = async (username: string) => {
      const response = await idp.app.request(
        `${OIDC}/token`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            grant_type: 'password',
            client_id: 'org-frontend',
            username,
            password: 'not-it',
          }),
        },
        { incoming: { socket: { remoteAddress: `192.0.2.${username.length}` } } },
      );
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        cache: response.headers.get('cache-control'),
        body: await response.text(),
      };
    };
    const wrongPassword = await answer('alice');
    expect(await answer('mallory')).toEqual(wrongPassword);
    expect(await answer('service-account-integration')).toEqual(wrongPassword);
    expect(wrongPassword.status).toBe(401);
  });
});

describe('bounded state', () => {
  it('tracks at most maxEntries addresses however many send guesses', () => {
    const clock = new TestClock();
    const throttle = new LoginThrottle(
      { ...KEYCLOAK_BRUTE_FORCE_DEFAULTS, bruteForceProtected: true },
      clock.now,
      { maxEntries: 100 },
    );
    for (let index = 0; index < 5000; index += 1)
      throttle.failure(undefined, `10.0.${index >> 8}.${index & 255}`);
    expect(throttle.trackedEntries()).toEqual({ users: 0, addresses: 100 });
  });
});
