import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { IdpContext } from './context.js';
import type { UserAccount } from './realm.js';
import { sameSecret } from './secrets.js';

/** The outcome of a username/password check; `invalid` covers every case a guesser must not tell apart. */
export type PasswordLogin = { kind: 'ok'; user: UserAccount } | { kind: 'invalid' } | { kind: 'disabled' };

// Compared against when there is no password to compare with, so every refusal costs the same hashing.
const DUMMY_SECRET = 'no-such-user-no-such-password';

/**
 * Checks a username and password for the password grant and the login form, in Keycloak's order
 * (user, brute-force lock, enabled, password). Unknown users, service accounts, locked accounts and wrong
 * passwords give the same `invalid` after the same hashing work; only the disabled account is told apart,
 * as Keycloak does before it looks at the password.
 */
export function checkPasswordLogin(
  ctx: IdpContext,
  username: string,
  password: string | null,
  address: string,
): PasswordLogin {
  const found = ctx.realm.findUserForLogin(username);
  const user = found && found.serviceAccountClientId === undefined ? found : undefined;
  if (ctx.throttle.isLocked(user?.id, address)) {
    sameSecret(password ?? '', DUMMY_SECRET);
    return { kind: 'invalid' };
  }
  if (!user) {
    sameSecret(password ?? '', DUMMY_SECRET);
    ctx.throttle.failure(undefined, address);
    return { kind: 'invalid' };
  }
  if (!user.enabled) return { kind: 'disabled' };
  const matches = sameSecret(password ?? '', user.password ?? DUMMY_SECRET);
  if (password === null || user.password === undefined || !matches) {
    ctx.throttle.failure(user.id, address);
    return { kind: 'invalid' };
  }
  ctx.throttle.success(user.id);
  return { kind: 'ok', user };
}

/**
 * The TCP peer's address. Forwarding headers are not read: the development provider is reached directly,
 * and a client could otherwise pick a fresh address for every guess.
 */
export function clientAddress(c: Context): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'unknown';
}
