import { randomUUID } from 'node:crypto';
import { invalid } from '../errors.js';
import { isUuid, type BodyReader } from '../input.js';
import { collections, type ClassRecord } from '../model.js';
import type { OrgData } from '../org-data.js';
import type { PendingState } from './pending-state.js';

/**
 * `POST /service/f/{facet}/` (OS2mo 2.4.0 `service/facet.py:800`, `ClassRequestHandler`): a class in the facet
 * named by user key or UUID, from `name`, `user_key`, an optional `scope` and the `org_uuid` (`MOClass`,
 * `service/models.py`). Without a `uuid`, or with one no class has, it creates the class; with a class's UUID it
 * writes the class anew in this facet, as 2.4.0's create of a LoRa `klasse` over an existing one does: what the
 * body does not give (`example`, `owner`, `parent`) is no longer set. Answers the class's UUID.
 */
export function createOrUpdateClass(
  data: OrgData,
  state: PendingState,
  facetKey: string,
  body: BodyReader,
): string {
  const facet = data.facet(facetKey);
  const name = body.raw('name');
  const userKey = body.raw('user_key');
  const scope = body.raw('scope');
  const orgUuid = body.raw('org_uuid');
  const uuid = body.raw('uuid');
  // Pydantic's model: `name` and `user_key` strings, `scope` a string or absent, `org_uuid` a UUID.
  const errors = [
    ...(typeof name === 'string' ? [] : [{ key: 'name', message: 'must be a string' }]),
    ...(typeof userKey === 'string' ? [] : [{ key: 'user_key', message: 'must be a string' }]),
    ...(scope === undefined || scope === null || typeof scope === 'string'
      ? []
      : [{ key: 'scope', message: 'must be a string' }]),
    ...(isUuid(orgUuid) ? [] : [{ key: 'org_uuid', message: 'must be a UUID' }]),
    ...(uuid === undefined || uuid === null || isUuid(uuid)
      ? []
      : [{ key: 'uuid', message: 'must be a UUID' }]),
  ];
  if (errors.length > 0) throw invalid.input(errors);
  const classUuid = isUuid(uuid) ? uuid.toLowerCase() : randomUUID();
  const record: ClassRecord = {
    uuid: classUuid,
    facet: facet.uuid,
    user_key: userKey as string,
    name: name as string,
    scope: typeof scope === 'string' && scope !== '' ? scope : null,
    example: null,
    owner: null,
    parent: null,
  };
  state.put(collections.class, record);
  return classUuid;
}
