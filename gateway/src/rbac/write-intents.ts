import { detailCreate, detailEdit, detailTerminate } from './detail-write-intents.js';
import { unitCreate } from './unit-create-intents.js';
import { Fields, isUuid, readable, uuidAt } from './write-body-reader.js';
import type { LegacyWrite, WriteIntent } from './write-intent.js';

/**
 * Reading a write: a legacy write request (the `/service` request, or the one a GraphQL mutation of any
 * version sends through `context.legacy.post`) into the intents RBAC decides. Pure: no reads, no clock.
 */

const detailWrites = new Map([
  ['create', detailCreate],
  ['edit', detailEdit],
  ['terminate', detailTerminate],
]);

/** Each item of a body that may be one object or a list, as the legacy `details/*` endpoints take it. */
const items = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]);
const at = (body: unknown, index: number) => (Array.isArray(body) ? `[${index}]` : '');

/**
 * `ou/{uuid}/terminate`, as OS2mo 2.4.0 reads it: with both `from` and `to` the unit is inactive from
 * `from` through `to` (`to: null`: for good), so the write reaches back to `from` whatever `to` says; with
 * only `to` (the deprecated form), `to` is its last day.
 */
function unitTerminate(unitInPath: string, body: unknown): WriteIntent {
  return readable(() => {
    const fields = Fields.of(body, '');
    const unit = uuidAt(unitInPath, 'the org unit UUID in the path');
    const validity = fields.nested('validity');
    if (validity.raw('from') !== undefined && validity.raw('to') !== undefined) {
      return { kind: 'terminate_unit', unit, date: validity.date('from'), ...validity.until('to') };
    }
    return { kind: 'terminate_unit', unit, date: validity.date('to') };
  });
}

/**
 * The write intents of a request to the legacy write API. `path` is the decoded path the legacy service
 * routes on (it ignores one trailing slash). Anything that is not one of the write endpoints is
 * `unreadable`, so only an admin can send it.
 *
 * @example
 * writeIntents({ method: 'POST', path: '/service/ou/create', body: { parent: { uuid }, validity: { from } } });
 * // [{ kind: 'create_unit', parent: uuid, date: from }]
 */
export function writeIntents(write: LegacyWrite): WriteIntent[] {
  const path = write.path.length > 1 && write.path.endsWith('/') ? write.path.slice(0, -1) : write.path;
  const segments = path.split('/').slice(1);
  const notAWrite: WriteIntent = {
    kind: 'unreadable',
    problem: `${write.method} ${write.path} is not a write endpoint of /service`,
  };
  if (write.method !== 'POST' || segments[0] !== 'service') return [notAWrite];
  const [, kind, second, third, ...rest] = segments;
  if (rest.length > 0) return [notAWrite];
  const body = write.body;

  if (kind === 'ou' && second === 'create' && third === undefined) return unitCreate(body);
  if (kind === 'e' && second === 'create' && third === undefined) {
    return [{ kind: 'employee', action: 'create', uuid: null }];
  }
  if (kind === 'f' && second !== undefined && second !== '' && third === undefined) {
    return [{ kind: 'class', facet: second }];
  }
  if (kind === 'details' && third === undefined) {
    const each = detailWrites.get(second ?? '');
    if (each) return items(body).map((item, index) => readable(() => each(item, at(body, index))));
  }
  if (third === 'terminate' && second !== undefined) {
    if (kind === 'e') {
      return [{ kind: 'employee', action: 'terminate', uuid: isUuid(second) ? second : null }];
    }
    if (kind === 'ou') return [unitTerminate(second, body)];
  }
  return [notAWrite];
}
