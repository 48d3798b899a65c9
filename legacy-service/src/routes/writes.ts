import { Hono, type Context } from 'hono';
import { invalid, LegacyError } from '../errors.js';
import { BodyReader, requireUuid } from '../input.js';
import { detailTypes, type DetailType } from '../model.js';
import { OrgData } from '../org-data.js';
import type { Store } from '../store/index.js';
import { createDetail, editDetail, readDetailType, terminateDetail } from '../writes/detail-writes.js';
import { createEmployee, editEmployee, terminateEmployee } from '../writes/employee-writes.js';
import { createOrgUnit, editOrgUnit, mapOrgUnits, terminateOrgUnit } from '../writes/org-unit-writes.js';
import { stampRegistration } from '../registration.js';
import { PendingState } from '../writes/pending-state.js';

export interface WriteRouteOptions {
  store: Store;
}

/** Deeper than any write body OS2mo takes (a detail's `data` holds objects a few levels down). */
const maxBodyDepth = 32;

/** Whether `value` nests arrays and objects deeper than `maxDepth`, found without recursion. */
function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth >= maxDepth) return true;
    for (const member of Object.values(next.value)) pending.push({ value: member, depth: next.depth + 1 });
  }
  return false;
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw invalid.json();
  }
  if (nestedDeeperThan(body, maxBodyDepth)) throw invalid.tooDeep(maxBodyDepth);
  return body;
}

/**
 * Items of a body that may be one object or a list of them; a list is all-or-nothing. As in OS2mo, the
 * types of all items are checked first: any unknown one refuses the whole request, naming every unknown type.
 */
function eachItem<T>(
  body: unknown,
  types: readonly string[],
  write: (item: unknown, key: string) => T,
): T | T[] {
  if (typeof body !== 'object' || body === null) {
    throw invalid.input([{ key: 'body', message: 'must be a JSON object or a list of them' }]);
  }
  const items: unknown[] = Array.isArray(body) ? body : [body];
  // An empty list does nothing, as in OS2mo.
  if (items.length === 0) return [];
  const unknown = items
    .map((item) =>
      typeof item === 'object' && item !== null ? (item as { type?: unknown }).type : undefined,
    )
    .filter((type) => typeof type !== 'string' || !types.includes(type));
  if (unknown.length > 0) {
    throw new LegacyError(400, 'E_UNKNOWN_ROLE_TYPE', 'Unknown role type.', {
      types: [...new Set(unknown.map((type) => (typeof type === 'string' ? type : null)))],
    });
  }
  if (!Array.isArray(body)) return write(body, '');
  return items.map((item, index) => write(item, `[${index}]`));
}

const editableTypes: readonly string[] = [...detailTypes, 'org_unit', 'employee'];

/** Every write endpoint of `/service`. Each request is one durable transaction. */
export function writeRoutes({ store }: WriteRouteOptions): Hono {
  const app = new Hono({ strict: false });

  /** Validates and applies `write` inside one store transaction; nothing is stored if any item fails. */
  const transact = <R>(write: (data: OrgData, state: PendingState) => R) =>
    store.transaction((current) => {
      const state = new PendingState(current);
      const result = write(new OrgData(state), state);
      return { mutations: stampRegistration(state.mutations, new Date()), result };
    });

  app.post('/ou/create', async (c) => {
    const body = await readJson(c);
    const uuid = await transact((data, state) => createOrgUnit(data, state, BodyReader.of(body)));
    return c.json(uuid, 201);
  });

  app.post('/e/create', async (c) => {
    const body = await readJson(c);
    const uuid = await transact((data, state) =>
      createEmployee(data, state, BodyReader.of(body), createDetail),
    );
    return c.json(uuid, 201);
  });

  app.post('/details/create', async (c) => {
    const body = await readJson(c);
    const result = await transact((data, state) =>
      eachItem(body, detailTypes, (item, key) => createDetail(data, state, item, key)),
    );
    return c.json(result, 201);
  });

  app.post('/details/edit', async (c) => {
    const body = await readJson(c);
    const result = await transact((data, state) =>
      eachItem(body, editableTypes, (item, key) => {
        const reader = BodyReader.of(item, key);
        const type = readDetailType(reader, editableTypes);
        if (type === 'org_unit') return editOrgUnit(data, state, reader);
        if (type === 'employee') return editEmployee(data, state, reader);
        return editDetail(data, state, type as DetailType, reader);
      }),
    );
    return c.json(result, 200);
  });

  app.post('/details/terminate', async (c) => {
    const body = await readJson(c);
    const result = await transact((data, state) =>
      eachItem(body, detailTypes, (item, key) => terminateDetail(data, state, BodyReader.of(item, key))),
    );
    return c.json(result, 200);
  });

  app.post('/ou/:uuid/terminate', async (c) => {
    const uuid = requireUuid('uuid', c.req.param('uuid'));
    const body = await readJson(c);
    const result = await transact((data, state) => terminateOrgUnit(data, state, uuid, BodyReader.of(body)));
    return c.json(result, 200);
  });

  app.post('/ou/:uuid/map', async (c) => {
    const uuid = requireUuid('uuid', c.req.param('uuid'));
    const body = await readJson(c);
    const result = await transact((data, state) => mapOrgUnits(data, state, uuid, BodyReader.of(body)));
    return c.json(result, 200);
  });

  app.post('/e/:uuid/terminate', async (c) => {
    const uuid = requireUuid('uuid', c.req.param('uuid'));
    const body = await readJson(c);
    const result = await transact((data, state) => terminateEmployee(data, state, uuid, BodyReader.of(body)));
    return c.json(result, 200);
  });

  return app;
}
