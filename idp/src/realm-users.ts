import { SERVICE_ACCOUNT_PREFIX } from './realm-representation.js';
import { UUID_PATTERN } from './stable-uuid.js';

/** The roles RBAC knows; the realm defines them only when RBAC is on. */
export const REALM_ROLES = ['admin', 'owner'] as const;
export type RealmRole = (typeof REALM_ROLES)[number];
/**
 * A role beyond RBAC's, for another client of the realm (OS2mo's UI shows its admin switch for
 * `class_admin`): letters, digits and `._:-`, as Keycloak role names are written.
 */
const ROLE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9._:-]{0,99}$/;

/** One entry of `IDP_REALM_USERS`, with the specification's member names. */
export interface RealmUser {
  username: string;
  password: string;
  firstname: string;
  lastname: string;
  email: string;
  uuid: string;
  /** RBAC's roles (`REALM_ROLES`) and any other role the realm should define and give the user. */
  roles: string[];
  enabled: boolean;
}

/** A bad `IDP_REALM_USERS`; the message names the entry and the member. */
export class RealmUsersError extends Error {
  override name = 'RealmUsersError';
}

const REQUIRED_STRINGS = ['username', 'password', 'firstname', 'lastname', 'email', 'uuid'] as const;
const KNOWN_MEMBERS = new Set<string>([...REQUIRED_STRINGS, 'roles', 'enabled']);
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// Keycloak stores usernames in lower case and its default user profile asks for 3 to 255 characters.
const USERNAME_PATTERN = /^[a-z0-9._@-]{3,255}$/;

/** Parses and validates the JSON text of `IDP_REALM_USERS` (or of the file that stands in for it). */
export function parseRealmUsers(text: string, source = 'IDP_REALM_USERS'): RealmUser[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new RealmUsersError(`${source} is not valid JSON: ${reason}`);
  }
  return validateRealmUsers(value, source);
}

export function validateRealmUsers(value: unknown, source = 'IDP_REALM_USERS'): RealmUser[] {
  if (!Array.isArray(value)) {
    throw new RealmUsersError(`${source} must be a JSON list of users, got ${describe(value)}`);
  }
  const users: RealmUser[] = [];
  const seenUsernames = new Map<string, number>();
  const seenEmails = new Map<string, number>();
  value.forEach((entry: unknown, index) => {
    const user = validateEntry(entry, `${source}[${index}]`);
    const label = `${source}[${index}] (${JSON.stringify(user.username)})`;
    const sameName = seenUsernames.get(user.username);
    if (sameName !== undefined) {
      throw new RealmUsersError(`${label}: member "username" repeats ${source}[${sameName}]`);
    }
    const sameEmail = seenEmails.get(user.email);
    if (sameEmail !== undefined) {
      throw new RealmUsersError(
        `${label}: member "email" repeats ${source}[${sameEmail}] (Keycloak requires unique emails)`,
      );
    }
    seenUsernames.set(user.username, index);
    seenEmails.set(user.email, index);
    users.push(user);
  });
  return users;
}

function validateEntry(entry: unknown, at: string): RealmUser {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new RealmUsersError(
      `${at}: must be an object with members ${listMembers()}, got ${describe(entry)}`,
    );
  }
  const record = entry as Record<string, unknown>;
  const username = record['username'];
  const label =
    typeof username === 'string' && username.length > 0 ? `${at} (${JSON.stringify(username)})` : at;
  const fail = (member: string, problem: string): never => {
    throw new RealmUsersError(`${label}: member "${member}" ${problem}`);
  };

  for (const member of Object.keys(record)) {
    if (!KNOWN_MEMBERS.has(member)) fail(member, `is not known; the members are ${listMembers()}`);
  }
  for (const member of REQUIRED_STRINGS) {
    const value = record[member];
    if (value === undefined) fail(member, 'is missing');
    if (typeof value !== 'string' || value.trim().length === 0) {
      // Never echo a password back, not even a wrong one.
      const got = member === 'password' ? typeName(value) : describe(value);
      fail(member, `must be a non-empty string, got ${got}`);
    }
  }
  const text = (member: (typeof REQUIRED_STRINGS)[number]) => record[member] as string;

  if (!USERNAME_PATTERN.test(text('username'))) {
    fail(
      'username',
      `must be 3 to 255 lower-case letters, digits or "._@-" (Keycloak stores usernames in lower case), got ${describe(text('username'))}`,
    );
  }
  if (text('username').startsWith(SERVICE_ACCOUNT_PREFIX)) {
    fail(
      'username',
      `must not start with "${SERVICE_ACCOUNT_PREFIX}", which Keycloak keeps for client service accounts`,
    );
  }
  if (!EMAIL_PATTERN.test(text('email')))
    fail('email', `must be an email address, got ${describe(text('email'))}`);
  if (!UUID_PATTERN.test(text('uuid'))) fail('uuid', `must be a UUID, got ${describe(text('uuid'))}`);

  const roles = record['roles'] ?? [];
  if (!Array.isArray(roles))
    fail('roles', `must be a list of roles (${quoteRoles()}), got ${describe(roles)}`);
  const checkedRoles: string[] = [];
  for (const role of roles as unknown[]) {
    if (typeof role !== 'string' || !ROLE_NAME_PATTERN.test(role)) {
      fail(
        'roles',
        `may only hold role names (${quoteRoles()}, or another name of letters, digits and "._:-"), got ${describe(role)}`,
      );
    }
    if (!checkedRoles.includes(role as string)) checkedRoles.push(role as string);
  }

  const enabled = record['enabled'] ?? true;
  if (typeof enabled !== 'boolean') fail('enabled', `must be true or false, got ${describe(enabled)}`);

  return {
    username: text('username'),
    password: text('password'),
    firstname: text('firstname'),
    lastname: text('lastname'),
    email: text('email'),
    uuid: text('uuid').toLowerCase(),
    roles: checkedRoles,
    enabled: enabled as boolean,
  };
}

function listMembers(): string {
  return [...KNOWN_MEMBERS].join(', ');
}

function quoteRoles(): string {
  return REALM_ROLES.map((role) => `"${role}"`).join(' or ');
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function describe(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return typeName(value);
}
