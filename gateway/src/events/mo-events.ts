import type { ObjectType } from '../legacy/backend-hooks.js';
import { os2moObjectNames } from '../legacy/os2mo-type-names.js';
import type { Logger } from '../observability/logger.js';
import type { WriteIntent } from '../rbac/write-intent.js';
import { moNamespace, type EventStore } from './event-store.js';

/**
 * The "mo" events of the writes that pass through the gateway, sent at once: OS2mo sends an event whenever
 * an object is registered (`docs/src/tech-docs/events.md`, "OS2mo events", HEAD), in the public "mo"
 * namespace, with the object's type as routing key and its UUID as subject.
 */

/** One object a write touched: OS2mo's routing key for its type, and its UUID. */
export interface TouchedObject {
  routingKey: string;
  uuid: string;
}

/** OS2mo's routing keys (`docs/src/tech-docs/events.md`, "OS2mo routing keys"). */
export const moRoutingKeys = [
  'address',
  'association',
  'class',
  'engagement',
  'facet',
  'itsystem',
  'ituser',
  'kle',
  'leave',
  'manager',
  'org_unit',
  'owner',
  'person',
  'related_unit',
  'rolebinding',
] as const;

/**
 * The routing key of an object the record of the backend noticed changing (`backend-record/`), or a write
 * touched: OS2mo's name for its type (`os2moObjectNames`), but `person` for a person; none for 2.x's roles
 * and engagement associations, which OS2mo no longer has (it replaced roles by role bindings and dropped
 * the other).
 */
export function recordedRoutingKey(type: ObjectType): string | undefined {
  if (type === 'employee') return 'person';
  return os2moObjectNames[type] ?? undefined;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The UUIDs a Service API write answered, in order: one (`"…"`) or one per item of a list body. */
function answeredUuids(body: unknown): (string | undefined)[] {
  const one = (value: unknown) =>
    typeof value === 'string' && uuidPattern.test(value) ? value.toLowerCase() : undefined;
  return Array.isArray(body) ? body.map(one) : [one(body)];
}

/**
 * What a successful `/service` write touched, from what RBAC read of the request (`writeIntents`) and the
 * UUIDs the backend answered (a create's new UUID). A write RBAC cannot read touches nothing known here:
 * the sweep of the backend finds it.
 */
export function touchedByServiceWrite(intents: readonly WriteIntent[], answer: unknown): TouchedObject[] {
  const answered = answeredUuids(answer);
  return intents.flatMap((intent, index): TouchedObject[] => {
    const created = answered[index] ?? (intents.length === 1 ? answered[0] : undefined);
    switch (intent.kind) {
      case 'create_unit':
        return created ? [{ routingKey: 'org_unit', uuid: created }] : [];
      case 'change_unit':
      case 'move_unit':
      case 'terminate_unit':
        return [{ routingKey: 'org_unit', uuid: intent.unit.toLowerCase() }];
      case 'create_detail': {
        const routingKey = recordedRoutingKey(intent.type);
        return routingKey && created ? [{ routingKey, uuid: created }] : [];
      }
      case 'change_detail': {
        const routingKey = recordedRoutingKey(intent.type);
        return routingKey ? [{ routingKey, uuid: intent.uuid.toLowerCase() }] : [];
      }
      case 'employee': {
        const uuid = intent.uuid ?? created;
        return uuid ? [{ routingKey: 'person', uuid: uuid.toLowerCase() }] : [];
      }
      case 'class':
        // OS2mo's "class" routing key; a class create answers its new UUID, an update names it in the body.
        return created ? [{ routingKey: 'class', uuid: created }] : [];
      case 'unreadable':
        return [];
    }
  });
}

/**
 * The routing key of an OS2mo mutation (`org_unit_create`, `employees_update`, …), by its object type: the
 * routing key of each Service API type under OS2mo's name for it (`employee` → `person`), and classes.
 */
const mutationRoutingKeys = new Map<string, string>([
  ...Object.entries(os2moObjectNames).flatMap(([type, name]): [string, string][] => {
    const routingKey = recordedRoutingKey(type as ObjectType);
    return name !== null && routingKey !== undefined ? [[name, routingKey]] : [];
  }),
  ['class', 'class'],
]);

/** The routing key of a mutation's object type, its name singular or plural (`addresses`, `employees`). */
function mutationRoutingKey(field: string): string | undefined {
  const name = /^([a-z_]+)_(create|update|terminate|delete|move)$/.exec(field)?.[1];
  if (name === undefined) return undefined;
  return (
    mutationRoutingKeys.get(name) ??
    mutationRoutingKeys.get(name.replace(/es$/, '')) ??
    mutationRoutingKeys.get(name.replace(/s$/, ''))
  );
}

/** What an OS2mo mutation touched: its answer's `{ uuid }` (or a list of them), under its type's routing key. */
export function touchedByMutation(field: string, answer: unknown): TouchedObject[] {
  const routingKey = mutationRoutingKey(field);
  if (!routingKey) return [];
  const answers = Array.isArray(answer) ? answer : [answer];
  return answers.flatMap((item) => {
    const uuid = (item as { uuid?: unknown } | null)?.uuid;
    return typeof uuid === 'string' && uuidPattern.test(uuid)
      ? [{ routingKey, uuid: uuid.toLowerCase() }]
      : [];
  });
}

/**
 * Sends the events of what a write touched, one statement per routing key. A failure is logged, never
 * thrown: the write has happened at the backend, and failing its answer would invite the client to repeat it.
 */
export async function sendMoEvents(
  store: EventStore,
  touched: readonly TouchedObject[],
  logger: Logger | undefined,
): Promise<void> {
  const byKey = new Map<string, string[]>();
  for (const object of touched)
    byKey.set(object.routingKey, [...(byKey.get(object.routingKey) ?? []), object.uuid]);
  try {
    for (const [routingKey, uuids] of byKey) await store.add(moNamespace, routingKey, uuids);
  } catch (error) {
    logger?.warn(
      { err: error, objects: touched.length },
      'events: a write passed, but its events could not be stored (the database failed)',
    );
  }
}
