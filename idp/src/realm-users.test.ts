import { describe, expect, it } from 'vitest';
import { parseRealmUsers, RealmUsersError } from './realm-users.js';

const valid = {
  username: 'bob',
  password: 'secret-pw',
  firstname: 'Bob',
  lastname: 'Berg',
  email: 'bob@example.org',
  uuid: 'A1B2C3D4-0000-4000-8000-000000000001',
  roles: ['owner'],
  enabled: true,
};

function parse(value: unknown): ReturnType<typeof parseRealmUsers> {
  return parseRealmUsers(typeof value === 'string' ? value : JSON.stringify(value));
}

function failure(value: unknown): string {
  try {
    parse(value);
  } catch (error) {
    expect(error).toBeInstanceOf(RealmUsersError);
    return (error as Error).message;
  }
  throw new Error('expected IDP_REALM_USERS to be refused');
}

describe('IDP_REALM_USERS', () => {
  it("reads the specification's members; roles and enabled are optional", () => {
    const { roles: _roles, enabled: _enabled, ...minimal } = valid;
    const users = parse([valid, { ...minimal, username: 'carl', email: 'carl@example.org' }]);
    expect(users[0]).toEqual({ ...valid, uuid: 'a1b2c3d4-0000-4000-8000-000000000001' });
    expect(users[1]).toMatchObject({ username: 'carl', roles: [], enabled: true });
  });

  it("reads roles beyond RBAC's (another client's, say OS2mo's UI), once each", () => {
    const [user] = parse([{ ...valid, roles: ['owner', 'class_admin', 'owner', 'ui.viewer:read'] }]);
    expect(user?.roles).toEqual(['owner', 'class_admin', 'ui.viewer:read']);
  });

  const cases: Array<[string, unknown, string]> = [
    ['not JSON', '[{"username": ', 'IDP_REALM_USERS is not valid JSON: '],
    ['not a list', { username: 'bob' }, 'IDP_REALM_USERS must be a JSON list of users, got an object'],
    ['an entry that is not an object', [valid, 'carl'], 'IDP_REALM_USERS[1]: must be an object with members'],
    [
      'missing username',
      [{ ...valid, username: undefined }],
      'IDP_REALM_USERS[0]: member "username" is missing',
    ],
    [
      'empty username',
      [valid, { ...valid, username: ' ' }],
      'IDP_REALM_USERS[1] (" "): member "username" must be a non-empty string, got " "',
    ],
    [
      'upper-case username',
      [{ ...valid, username: 'Bob' }],
      'IDP_REALM_USERS[0] ("Bob"): member "username" must be 3 to 255 lower-case',
    ],
    [
      'reserved username',
      [{ ...valid, username: 'service-account-x' }],
      'IDP_REALM_USERS[0] ("service-account-x"): member "username" must not start with',
    ],
    [
      'duplicate username',
      [valid, { ...valid, email: 'b2@example.org' }],
      'IDP_REALM_USERS[1] ("bob"): member "username" repeats IDP_REALM_USERS[0]',
    ],
    [
      'duplicate email',
      [valid, { ...valid, username: 'bobby' }],
      'IDP_REALM_USERS[1] ("bobby"): member "email" repeats IDP_REALM_USERS[0]',
    ],
    [
      'a role that is no role name',
      [{ ...valid, roles: ['owner', 'class admin'] }],
      'IDP_REALM_USERS[0] ("bob"): member "roles" may only hold role names ("admin" or "owner", or another name of letters, digits and "._:-"), got "class admin"',
    ],
    [
      'a role that is not text',
      [{ ...valid, roles: [7] }],
      'IDP_REALM_USERS[0] ("bob"): member "roles" may only hold role names ("admin" or "owner", or another name of letters, digits and "._:-"), got 7',
    ],
    [
      'roles not a list',
      [{ ...valid, roles: 'admin' }],
      'IDP_REALM_USERS[0] ("bob"): member "roles" must be a list of roles ("admin" or "owner"), got "admin"',
    ],
    [
      'bad UUID',
      [
        valid,
        { ...valid, username: 'carl', email: 'c@example.org' },
        { ...valid, username: 'eve', uuid: 'x' },
      ],
      'IDP_REALM_USERS[2] ("eve"): member "uuid" must be a UUID, got "x"',
    ],
    [
      'bad email',
      [{ ...valid, email: 'bob' }],
      'IDP_REALM_USERS[0] ("bob"): member "email" must be an email address, got "bob"',
    ],
    [
      'enabled of the wrong type',
      [{ ...valid, enabled: 'yes' }],
      'IDP_REALM_USERS[0] ("bob"): member "enabled" must be true or false, got "yes"',
    ],
    [
      'a name of the wrong type',
      [{ ...valid, firstname: 7 }],
      'IDP_REALM_USERS[0] ("bob"): member "firstname" must be a non-empty string, got 7',
    ],
    [
      'an unknown member',
      [{ ...valid, firstName: 'Bob' }],
      'IDP_REALM_USERS[0] ("bob"): member "firstName" is not known; the members are username, password,',
    ],
  ];
  for (const [name, value, message] of cases) {
    it(`names the entry and the member for ${name}`, () => {
      expect(failure(value)).toContain(message);
    });
  }

  it('never repeats a password in an error', () => {
    const message = failure([{ ...valid, password: ['hunter2'] }]);
    expect(message).toBe(
      'IDP_REALM_USERS[0] ("bob"): member "password" must be a non-empty string, got a list',
    );
    expect(message).not.toContain('hunter2');
  });
});
