import { randomUUID } from 'node:crypto';
import type { GraphQLContext } from '../../context.js';
import { legacyPaths } from '../../../legacy/legacy-paths.js';
import { os2moObjectNames } from '../../../legacy/os2mo-type-names.js';
import {
  canonicalInput,
  legacyFields,
  type Input,
  type InputShape,
} from '../../write-mapping/legacy-body.js';
import { typeMappings, type MappedType } from '../../write-mapping/type-mappings.js';
import { withOs2moErrors } from '../error-context.js';
import { classResolvers } from './class-writes.js';
import { endDay, startDay, type EndReading } from './service-dates.js';
import { refuseUnbackableClears } from './unit-clears.js';

/** How one OS2mo version reads a mutation's input, where versions differ (OS2mo's migration guide). */
export interface Os2moMutationOptions {
  /** How `validity.to` and a terminate's `to` are read: exclusive since v29, inclusive before. */
  ends: EndReading;
  /** In `org_unit_update`, `null` clears a field since v22; before, it was ignored like a field left out. */
  orgUnitUpdateNull: InputShape['nullInUpdate'];
}

/** v30's (and v29's) reading. */
export const newestMutationOptions: Os2moMutationOptions = { ends: 'exclusive', orgUnitUpdateNull: 'clear' };

type Args = { input: Input };
type ListArgs = { input: Input[] };
/**
 * The root of an OS2mo `XResponse`: the read side loads `current`, `objects`, … from the UUID, and a created
 * detail record from the listing of the person or unit its input names.
 */
type Response = { uuid: string; __owner?: { unit?: string; employee?: string } };

/** OS2mo's update inputs default every field to `null`, which there means "keep"; creates leave `null` out. */
const keepNull: InputShape = { nullInUpdate: 'keep' };
/** OS2mo still takes the deprecated `employee` beside `person` on engagements, addresses and associations. */
const employeeAlias: InputShape = { renames: { employee: 'person' }, nullInUpdate: 'keep' };

/** OS2mo's enum names an owner's inference priority; the Service API's record, by its stored value. */
function ownerPriority(input: Input): Input {
  const given = input.inference_priority;
  if (given === null || given === undefined) return input;
  return {
    ...input,
    inference_priority: `${String(given)
      .toLowerCase()
      .replace(/_priority$/, '')}_priority`,
  };
}

/**
 * OS2mo's detail mutations the Service API backs: Service API type, input shape. Each mutation begins with
 * OS2mo's name for the type (`os2moObjectNames`: the Service API's `it` is OS2mo's `ituser`).
 */
const details = [
  { type: 'engagement', shape: employeeAlias },
  { type: 'manager', shape: keepNull },
  { type: 'owner', shape: keepNull },
  { type: 'address', shape: employeeAlias },
  { type: 'association', shape: employeeAlias },
  { type: 'it', shape: keepNull },
  { type: 'kle', shape: keepNull },
  { type: 'leave', shape: keepNull },
] as const satisfies readonly { type: MappedType; shape: InputShape }[];

/** OS2mo's list mutations: one Service API write of the whole list, as OS2mo makes them in one transaction. */
const listCreates = {
  engagement: 'engagements',
  manager: 'managers',
  address: 'addresses',
  ituser: 'itusers',
};
const listUpdates = { engagement: 'engagements' };

type Resolver = (parent: unknown, args: never, context: GraphQLContext) => Promise<unknown>;

const post = (context: GraphQLContext, path: string, body: unknown) =>
  context.legacy.post<string | string[]>(path, body);
const one = async (written: Promise<string | string[]>): Promise<Response> => ({
  uuid: String(await written),
});
const each = async (written: Promise<string | string[]>): Promise<Response[]> =>
  ([] as string[]).concat(await written).map((uuid) => ({ uuid }));

/**
 * Whose listing holds a created detail record: its person's when it names one (the Service API lists a
 * person's records under the person, not under any unit), else its unit's. Without it, reading the record
 * back searches every unit's listing and misses a person's address.
 */
function listedUnder(input: Input): Response['__owner'] {
  const person = input.person ?? input.employee;
  if (typeof person === 'string') return { employee: person };
  return typeof input.org_unit === 'string' ? { unit: input.org_unit } : undefined;
}
const created = async (written: Promise<string | string[]>, input: Input): Promise<Response> => {
  const owner = listedUnder(input);
  return { ...(await one(written)), ...(owner ? { __owner: owner } : {}) };
};

/** How one version turns its inputs into Service API bodies: dates as it reads them, fields by the mappings. */
function writer(options: Os2moMutationOptions) {
  const validity = (given: unknown) => {
    const { from, to } = given as { from: unknown; to?: unknown };
    return { from: startDay(from), to: to === null || to === undefined ? null : endDay(to, options.ends) };
  };
  const fields = (type: MappedType, input: Input, write: 'create' | 'update', shape: InputShape) => {
    const canonical = canonicalInput(type === 'owner' ? ownerPriority(input) : input, shape);
    return legacyFields(typeMappings[type], canonical, write, shape);
  };
  return {
    validity,
    fields,
    endDay: (to: unknown) => endDay(to, options.ends),
    createItem: (type: MappedType, shape: InputShape) => (input: Input) => ({
      type,
      ...(input.uuid ? { uuid: input.uuid } : {}),
      ...fields(type, input, 'create', shape),
      validity: validity(input.validity),
    }),
    updateItem: (type: MappedType, shape: InputShape) => (input: Input) => ({
      type,
      uuid: input.uuid,
      data: { ...fields(type, input, 'update', shape), validity: validity(input.validity) },
    }),
  };
}
type Writer = ReturnType<typeof writer>;

/** Create, update and terminate of every detail type, and OS2mo's list forms of some. */
function detailResolvers(write: Writer): Record<string, Resolver> {
  const resolvers: Record<string, Resolver> = {};
  for (const { type, shape } of details) {
    const prefix = os2moObjectNames[type];
    const create = write.createItem(type, shape);
    const update = write.updateItem(type, shape);
    resolvers[`${prefix}_create`] = (_: unknown, { input }: Args, context: GraphQLContext) =>
      created(post(context, legacyPaths.detailsCreate(), create(input)), input);
    resolvers[`${prefix}_update`] = (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(post(context, legacyPaths.detailsEdit(), update(input)));
    resolvers[`${prefix}_terminate`] = (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(
        post(context, legacyPaths.detailsTerminate(), {
          type,
          uuid: input.uuid,
          validity: { to: write.endDay(input.to) },
        }),
      );
    const plural = listCreates[prefix as keyof typeof listCreates];
    if (plural) {
      resolvers[`${plural}_create`] = (_: unknown, { input }: ListArgs, context: GraphQLContext) =>
        each(post(context, legacyPaths.detailsCreate(), input.map(create)));
    }
    const pluralUpdate = listUpdates[prefix as keyof typeof listUpdates];
    if (pluralUpdate) {
      resolvers[`${pluralUpdate}_update`] = (_: unknown, { input }: ListArgs, context: GraphQLContext) =>
        each(post(context, legacyPaths.detailsEdit(), input.map(update)));
    }
  }
  return resolvers;
}

function orgUnitResolvers(write: Writer, options: Os2moMutationOptions): Record<string, Resolver> {
  const orgUnitUpdate: InputShape = { nullInUpdate: options.orgUnitUpdateNull };
  return {
    org_unit_create: (_: unknown, { input }: Args, context: GraphQLContext) => {
      // As OS2mo's `OrganisationUnitCreateInput.to_handler_dict`: the UUID is chosen here when not given, and
      // a unit without a user key is keyed by its UUID (the Service API would key it by its name).
      const uuid = (input.uuid as string | null | undefined) ?? randomUUID();
      const written = write.fields('org_unit', input, 'create', keepNull);
      return one(
        post(context, legacyPaths.orgUnitCreate(), {
          uuid,
          ...written,
          user_key: written.user_key ?? uuid,
          validity: write.validity(input.validity),
        }),
      );
    },
    org_unit_update: async (_: unknown, { input }: Args, context: GraphQLContext) => {
      const validity = write.validity(input.validity);
      const path = legacyPaths.detailsEdit();
      const body = {
        type: 'org_unit',
        uuid: input.uuid,
        data: { uuid: input.uuid, ...write.fields('org_unit', input, 'update', orgUnitUpdate), validity },
      };
      // v22 on, `null` asks to clear, which 2.4.0 cannot: a held level or hierarchy is refused (`unit-clears.ts`).
      if (options.orgUnitUpdateNull === 'clear') {
        await refuseUnbackableClears(context, input, validity, { path, body });
      }
      return one(post(context, path, body));
    },
    org_unit_terminate: (_: unknown, { input }: Args, context: GraphQLContext) => {
      const to = write.endDay(input.to);
      // With `from`, the Service API keeps the unit inactive from `from` through its (inclusive) `to`.
      const period =
        input.from === null || input.from === undefined ? { to } : { from: startDay(input.from), to };
      return one(post(context, legacyPaths.orgUnitTerminate(String(input.uuid)), { validity: period }));
    },
    // OS2mo relates from `validity.from` on, ignores `to` and `uuid`, and answers the origin unit.
    related_units_update: async (_: unknown, { input }: Args, context: GraphQLContext) => {
      const from = startDay((input.validity as { from: unknown }).from);
      await context.legacy.post(legacyPaths.orgUnitMap(String(input.origin)), {
        destination: input.destination ?? [],
        validity: { from },
      });
      return { uuid: String(input.origin) };
    },
  };
}

function employeeResolvers(write: Writer): Record<string, Resolver> {
  return {
    employee_create: (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(
        post(context, legacyPaths.employeeCreate(), {
          ...(input.uuid ? { uuid: input.uuid } : {}),
          ...write.fields('employee', input, 'create', keepNull),
        }),
      ),
    employee_update: (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(post(context, legacyPaths.detailsEdit(), write.updateItem('employee', keepNull)(input))),
    employee_terminate: (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(
        post(context, legacyPaths.employeeTerminate(String(input.uuid)), {
          validity: { to: write.endDay(input.to) },
          vacate: input.vacate === true,
        }),
      ),
  };
}

/**
 * The resolvers of `os2moMutationTypeDefs`: each is one Service API write through `context.legacy.post` (so
 * RBAC decides it), built from the type's one mapping (`typeMappings`), answering the written UUID as the root
 * of OS2mo's `XResponse`. Business errors carry OS2mo's `error_context`.
 */
export function os2moMutationResolvers(options: Os2moMutationOptions = newestMutationOptions) {
  const write = writer(options);
  const resolvers = {
    ...orgUnitResolvers(write, options),
    ...employeeResolvers(write),
    ...detailResolvers(write),
    ...classResolvers(),
  };
  return Object.fromEntries(
    Object.entries(resolvers).map(([name, resolve]) => [name, withOs2moErrors(resolve)]),
  ) as Record<string, Resolver>;
}
