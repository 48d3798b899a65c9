import { randomUUID } from 'node:crypto';
import type { GraphQLContext } from '../../context.js';
import { legacyPaths } from '../../../legacy/legacy-paths.js';
import {
  canonicalInput,
  legacyFields,
  type Input,
  type InputShape,
} from '../../write-mapping/legacy-body.js';
import { typeMappings, type MappedType } from '../../write-mapping/type-mappings.js';
import { withOs2moErrors } from '../error-context.js';
import { endDay, startDay, type EndReading } from './service-dates.js';

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
/** The root of an OS2mo `XResponse`: the read side loads `current`, `objects`, … from the UUID. */
type Response = { uuid: string };

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

/** OS2mo's detail mutations the Service API backs: prefix, Service API type, input shape. */
const details = [
  { prefix: 'engagement', type: 'engagement', shape: employeeAlias },
  { prefix: 'manager', type: 'manager', shape: keepNull },
  { prefix: 'owner', type: 'owner', shape: keepNull },
  { prefix: 'address', type: 'address', shape: employeeAlias },
  { prefix: 'association', type: 'association', shape: employeeAlias },
  { prefix: 'ituser', type: 'it', shape: keepNull },
  { prefix: 'kle', type: 'kle', shape: keepNull },
  { prefix: 'leave', type: 'leave', shape: keepNull },
] as const satisfies readonly { prefix: string; type: MappedType; shape: InputShape }[];

/** OS2mo's list mutations: one Service API write of the whole list, as OS2mo makes them in one transaction. */
const listCreates = {
  engagement: 'engagements',
  manager: 'managers',
  address: 'addresses',
  ituser: 'itusers',
};
const listUpdates = { engagement: 'engagements' };

/**
 * The resolvers of `os2moMutationTypeDefs`: each is one Service API write through `context.legacy.post` (so
 * RBAC decides it), built from the type's one mapping (`typeMappings`), answering the written UUID as the root
 * of OS2mo's `XResponse`. Business errors carry OS2mo's `error_context`.
 */
export function os2moMutationResolvers(options: Os2moMutationOptions = newestMutationOptions) {
  const validity = (given: unknown) => {
    const { from, to } = given as { from: unknown; to?: unknown };
    return { from: startDay(from), to: to === null || to === undefined ? null : endDay(to, options.ends) };
  };
  const fields = (type: MappedType, input: Input, write: 'create' | 'update', shape: InputShape) => {
    const canonical = canonicalInput(type === 'owner' ? ownerPriority(input) : input, shape);
    return legacyFields(typeMappings[type], canonical, write, shape);
  };
  const post = (context: GraphQLContext, path: string, body: unknown) =>
    context.legacy.post<string | string[]>(path, body);
  const one = async (written: Promise<string | string[]>): Promise<Response> => ({
    uuid: String(await written),
  });
  const each = async (written: Promise<string | string[]>): Promise<Response[]> =>
    ([] as string[]).concat(await written).map((uuid) => ({ uuid }));

  const createItem = (type: MappedType, shape: InputShape) => (input: Input) => ({
    type,
    ...(input.uuid ? { uuid: input.uuid } : {}),
    ...fields(type, input, 'create', shape),
    validity: validity(input.validity),
  });
  const updateItem = (type: MappedType, shape: InputShape) => (input: Input) => ({
    type,
    uuid: input.uuid,
    data: { ...fields(type, input, 'update', shape), validity: validity(input.validity) },
  });

  const resolvers: Record<
    string,
    (parent: unknown, args: never, context: GraphQLContext) => Promise<unknown>
  > = {};
  for (const { prefix, type, shape } of details) {
    const create = createItem(type, shape);
    const update = updateItem(type, shape);
    resolvers[`${prefix}_create`] = (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(post(context, legacyPaths.detailsCreate(), create(input)));
    resolvers[`${prefix}_update`] = (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(post(context, legacyPaths.detailsEdit(), update(input)));
    resolvers[`${prefix}_terminate`] = (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(
        post(context, legacyPaths.detailsTerminate(), {
          type,
          uuid: input.uuid,
          validity: { to: endDay(input.to, options.ends) },
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

  const orgUnitUpdate: InputShape = { nullInUpdate: options.orgUnitUpdateNull };
  Object.assign(resolvers, {
    org_unit_create: (_: unknown, { input }: Args, context: GraphQLContext) => {
      // As OS2mo's `OrganisationUnitCreateInput.to_handler_dict`: the UUID is chosen here when not given, and
      // a unit without a user key is keyed by its UUID (the Service API would key it by its name).
      const uuid = (input.uuid as string | null | undefined) ?? randomUUID();
      const written = fields('org_unit', input, 'create', keepNull);
      return one(
        post(context, legacyPaths.orgUnitCreate(), {
          uuid,
          ...written,
          user_key: written.user_key ?? uuid,
          validity: validity(input.validity),
        }),
      );
    },
    org_unit_update: (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(
        post(context, legacyPaths.detailsEdit(), {
          type: 'org_unit',
          uuid: input.uuid,
          data: {
            uuid: input.uuid,
            ...fields('org_unit', input, 'update', orgUnitUpdate),
            validity: validity(input.validity),
          },
        }),
      ),
    org_unit_terminate: (_: unknown, { input }: Args, context: GraphQLContext) => {
      const to = endDay(input.to, options.ends);
      // With `from`, the Service API keeps the unit inactive from `from` through its (inclusive) `to`.
      const period =
        input.from === null || input.from === undefined ? { to } : { from: startDay(input.from), to };
      return one(post(context, legacyPaths.orgUnitTerminate(String(input.uuid)), { validity: period }));
    },
    employee_create: (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(
        post(context, legacyPaths.employeeCreate(), {
          ...(input.uuid ? { uuid: input.uuid } : {}),
          ...fields('employee', input, 'create', keepNull),
        }),
      ),
    employee_update: (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(post(context, legacyPaths.detailsEdit(), updateItem('employee', keepNull)(input))),
    employee_terminate: (_: unknown, { input }: Args, context: GraphQLContext) =>
      one(
        post(context, legacyPaths.employeeTerminate(String(input.uuid)), {
          validity: { to: endDay(input.to, options.ends) },
          vacate: input.vacate === true,
        }),
      ),
    // OS2mo relates from `validity.from` on, ignores `to` and `uuid`, and answers the origin unit.
    related_units_update: async (_: unknown, { input }: Args, context: GraphQLContext) => {
      const from = startDay((input.validity as { from: unknown }).from);
      await context.legacy.post(legacyPaths.orgUnitMap(String(input.origin)), {
        destination: input.destination ?? [],
        validity: { from },
      });
      return { uuid: String(input.origin) };
    },
  });

  return Object.fromEntries(
    Object.entries(resolvers).map(([name, resolve]) => [name, withOs2moErrors(resolve)]),
  ) as Record<string, (parent: unknown, args: never, context: GraphQLContext) => Promise<unknown>>;
}
