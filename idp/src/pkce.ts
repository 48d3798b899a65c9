import { createHash } from 'node:crypto';
import { sameSecret } from './secrets.js';

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved set; challenges have the same form. */
export const PKCE_VALUE_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Only S256: `plain` gives no protection against a stolen authorization request. */
export const PKCE_METHODS = ['S256'] as const;

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function verifierMatches(verifier: string, challenge: string): boolean {
  return sameSecret(s256Challenge(verifier), challenge);
}
