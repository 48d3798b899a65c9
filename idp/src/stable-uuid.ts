import { createHash } from 'node:crypto';

// A fixed namespace so the same name always yields the same id, in the realm file and in a real Keycloak.
const NAMESPACE = 'org-gateway development realm';

/** A deterministic UUID (version 5 layout, SHA-1 of namespace and name) for ids in the realm file. */
export function stableUuid(name: string): string {
  const bytes = createHash('sha1').update(`${NAMESPACE}\u0000${name}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
