import { StoreError } from './errors.js';
import type { Mutation, StoredEntity } from './types.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks one mutation that came out of `JSON.parse` and returns a fresh object with only the known fields.
 * `where` names the source (a transaction, a journal line, a snapshot line) for the error message.
 */
export function parseMutation(raw: unknown, where: string): Mutation {
  if (!isPlainObject(raw)) {
    throw new StoreError('INVALID_MUTATION', `${where}: a mutation must be an object`);
  }
  const { collection, uuid, value } = raw;
  if (typeof collection !== 'string' || collection === '') {
    throw new StoreError('INVALID_MUTATION', `${where}: "collection" must be a non-empty string`);
  }
  if (typeof uuid !== 'string' || uuid === '') {
    throw new StoreError('INVALID_MUTATION', `${where}: "uuid" must be a non-empty string`);
  }
  if (value === null) {
    return { collection, uuid, value: null };
  }
  if (!isPlainObject(value)) {
    throw new StoreError(
      'INVALID_MUTATION',
      `${where}: "value" of ${collection}/${uuid} must be an entity object, or null to delete`,
    );
  }
  if (value.uuid !== uuid) {
    throw new StoreError(
      'INVALID_MUTATION',
      `${where}: value.uuid ${JSON.stringify(value.uuid)} does not match the mutation's uuid "${uuid}" in ${collection}`,
    );
  }
  return { collection, uuid, value: value as StoredEntity };
}

export function parseMutations(raw: unknown, where: string): Mutation[] {
  if (!Array.isArray(raw)) {
    throw new StoreError('INVALID_MUTATION', `${where}: "mutations" must be an array`);
  }
  return raw.map((mutation, index) => parseMutation(mutation, `${where}, mutation ${index}`));
}
