import { createHash } from 'node:crypto';
import type { Principal } from '../auth/principal.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A name-based UUID (RFC 9562 version 5) in the gateway's own namespace. */
function nameUuid(name: string): string {
  const hash = createHash('sha1').update(`org-gateway:${name}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Who owns the namespaces and listeners a caller declares, and whose events it may fetch: as OS2mo's
 * `get_authenticated_user` (`mora/auth/middleware.py`, HEAD), the token's `uuid` claim. A token without one —
 * a client-credentials token of a client whose service account has no `uuid` attribute, as this realm's
 * integrations — is owned by its client (`azp`), a UUID made from the client id: OS2mo would give every such
 * token one shared UUID (`MISSING_UUID_ON_TOKEN`), which would let one client read another's events.
 */
export function eventOwner(principal: Principal): string {
  const claimed = principal.employeeUuid;
  if (claimed !== undefined && uuidPattern.test(claimed)) return claimed.toLowerCase();
  return nameUuid(`client:${principal.clientId ?? principal.subject}`);
}
