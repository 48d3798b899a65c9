import { isObjectType, type ObjectOwner } from './backend-objects.js';
import type { Touch } from './object-reads.js';

// A write that passed through the gateway (either road) and that the backend accepted: the Service API path it
// was sent to, the body as judged and sent, and the backend's answer (the UUIDs it wrote), when it was read.
export type { BackendWrite, WriteHook } from '../legacy/backend-hooks.js';
import type { BackendWrite } from '../legacy/backend-hooks.js';

type Item = Record<string, unknown>;

const asItems = (value: unknown): Item[] =>
  (Array.isArray(value) ? value : [value]).filter(
    (item): item is Item => item !== null && typeof item === 'object',
  );

const uuidIn = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') {
    const uuid = (value as { uuid?: unknown }).uuid;
    return typeof uuid === 'string' ? uuid : undefined;
  }
  return undefined;
};

const answered = (answer: unknown, index: number): string | undefined =>
  Array.isArray(answer) ? uuidIn(answer[index]) : index === 0 ? uuidIn(answer) : undefined;

/** The owner a write body names: its person, else its unit (as the Service API's own bodies name them). */
function ownerNamed(item: Item | undefined): ObjectOwner | undefined {
  if (!item) return undefined;
  const person = uuidIn(item.person) ?? uuidIn(item.employee);
  const units = item.org_unit;
  const unit = Array.isArray(units) ? uuidIn(units[0]) : uuidIn(units);
  if (person === undefined && unit === undefined) return undefined;
  return { ...(person ? { person } : {}), ...(unit ? { unit } : {}) };
}

/** The detail types a person's termination ends (OS2mo 2.4.0 `service/employee.py`, `terminate_employee`). */
const personTypes = [
  'engagement',
  'association',
  'it',
  'address',
  'leave',
  'manager',
  'role',
  'owner',
] as const;

/**
 * What a Service API write touched, from its path, body and answer (OS2mo 2.4.0's write endpoints:
 * `service/details/writing.py`, `service/orgunit.py`, `service/employee.py`, `service/related.py`).
 */
export function touchedBy(write: BackendWrite): Touch[] {
  const path = write.path.split('?')[0]!.replace(/\/+$/, '');
  if (path === '/service/details/create') {
    return asItems(write.body).flatMap((item, index) => {
      const uuid = uuidIn(item.uuid) ?? answered(write.answer, index);
      const owner = ownerNamed(item);
      return isObjectType(item.type)
        ? [{ type: item.type, ...(uuid ? { uuid } : {}), ...(owner ? { owner } : {}) }]
        : [];
    });
  }
  if (path === '/service/details/edit' || path === '/service/details/terminate') {
    return asItems(write.body).flatMap((item) => {
      const uuid = uuidIn(item.uuid);
      const owner = ownerNamed(item.data as Item | undefined) ?? ownerNamed(item);
      return isObjectType(item.type) && uuid ? [{ type: item.type, uuid, ...(owner ? { owner } : {}) }] : [];
    });
  }
  if (path === '/service/ou/create' || path === '/service/e/create') {
    const uuid = uuidIn((write.body as Item | undefined)?.uuid) ?? answered(write.answer, 0);
    return uuid ? [{ type: path === '/service/ou/create' ? 'org_unit' : 'employee', uuid }] : [];
  }
  const unit = /^\/service\/ou\/([^/]+)\/(terminate|map)$/.exec(path);
  if (unit) {
    const uuid = decodeURIComponent(unit[1]!);
    if (unit[2] === 'terminate') return [{ type: 'org_unit', uuid }];
    // Relating a unit to units rewrites the relations of it and of each unit it names.
    const named = asItems((write.body as Item | undefined)?.destination).flatMap((d) => uuidIn(d) ?? []);
    const destinations = ((write.body as Item | undefined)?.destination as unknown[] | undefined) ?? [];
    const strings = destinations.filter((d): d is string => typeof d === 'string');
    return [uuid, ...named, ...strings].map((owner) => ({ type: 'related_unit', owner: { unit: owner } }));
  }
  const person = /^\/service\/e\/([^/]+)\/terminate$/.exec(path);
  if (person) {
    const uuid = decodeURIComponent(person[1]!);
    return [{ type: 'employee', uuid }, ...personTypes.map((type) => ({ type, owner: { person: uuid } }))];
  }
  return [];
}

const parsed = (bytes: Uint8Array | undefined): unknown => {
  if (bytes === undefined || bytes.length === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
};

/**
 * A `/service` write as the passthrough forwarded it: the path, the body as it was sent (already judged by RBAC)
 * and the backend's answer when the passthrough read it whole (a write's answer is a UUID or a list of them).
 */
export function serviceWrite(
  target: string,
  body: Uint8Array | undefined,
  answer: unknown,
  authorization: string | undefined,
): BackendWrite {
  return {
    path: target,
    body: parsed(body),
    answer: answer instanceof Uint8Array ? parsed(answer) : undefined,
    authorization,
  };
}
