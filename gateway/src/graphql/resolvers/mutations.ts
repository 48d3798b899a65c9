import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import type { DetailType, LegacyRecord } from '../../legacy/legacy-loaders.js';
import { legacyPaths } from '../../legacy/legacy-paths.js';
import { canonicalInput, legacyFields, type Input, type InputShape } from '../write-mapping/legacy-body.js';
import { typeMappings, type MappedType } from '../write-mapping/type-mappings.js';
import { refuseUnbackableClears } from '../os2mo/mutations/unit-clears.js';

interface ValidityInput {
  from: string;
  to?: string | null;
}

type Args = { input: Input };

/** What a written detail can be read back through. */
type ReadBackVia = { unit?: unknown; employee?: unknown };

/** Drops members the caller left out, so the legacy edit keeps their current values. */
function defined(body: Input): Input {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** A payload whose `object` is read back lazily, only when the query selects it. */
function payload(uuid: string, readBack: (() => Promise<Source | null>) | null) {
  return { uuid, object: readBack };
}

/** Reads a detail record back through its unit or its employee, as of `at`. */
async function readDetail(
  context: GraphQLContext,
  type: DetailType,
  uuid: string,
  at: string,
  via: ReadBackVia,
): Promise<Source | null> {
  const records =
    typeof via.unit === 'string'
      ? await context.legacy.unitDetails(type, via.unit, { at })
      : typeof via.employee === 'string'
        ? await context.legacy.employeeDetails(type, via.employee, { at })
        : null;
  const found = records?.find((record: LegacyRecord) => record.uuid === uuid);
  return found ? withDate(found, at) : null;
}

/**
 * v1/v2's inputs: a record's person is `employee` (OS2mo's graph says `person`), a person's first name
 * `givenname`; in an update, `null` clears a field.
 */
const personAsEmployee: InputShape = { renames: { employee: 'person' }, nullInUpdate: 'clear' };
const asGiven: InputShape = { nullInUpdate: 'clear' };
const employeeShape: InputShape = { renames: { givenname: 'given_name' }, nullInUpdate: 'clear' };

/** The detail types v1/v2 write, each with its mutation prefix and how its input names it. */
const detailMutations: { prefix: string; type: Exclude<DetailType, 'related_unit'>; shape: InputShape }[] = [
  { prefix: 'engagement', type: 'engagement', shape: personAsEmployee },
  { prefix: 'manager', type: 'manager', shape: personAsEmployee },
  { prefix: 'owner', type: 'owner', shape: asGiven },
  { prefix: 'ituser', type: 'it', shape: personAsEmployee },
  { prefix: 'address', type: 'address', shape: personAsEmployee },
  { prefix: 'association', type: 'association', shape: personAsEmployee },
  { prefix: 'role', type: 'role', shape: personAsEmployee },
  { prefix: 'leave', type: 'leave', shape: personAsEmployee },
  { prefix: 'kle', type: 'kle', shape: asGiven },
  { prefix: 'engagement_association', type: 'engagement_association', shape: asGiven },
];

/** The Service API body fields of a v1/v2 write of `type`, by its one mapping. */
function fieldsOf(type: MappedType, input: Input, write: 'create' | 'update', shape: InputShape): Input {
  return legacyFields(typeMappings[type], canonicalInput(input, shape), write, shape);
}

const post = (context: GraphQLContext, path: string, body: unknown) =>
  context.legacy.post<string>(path, body);

/** Reads a unit back as of `at`, when the query selects it. */
const readUnit = (context: GraphQLContext, uuid: string, at: string) => async () => {
  const found = await context.legacy.orgUnit(uuid, at);
  return found ? withDate(found, at) : null;
};

/** Reads a person back as of `at`, when the query selects it. */
const readEmployee = (context: GraphQLContext, uuid: string, at: string) => async () => {
  const found = await context.legacy.employee(uuid, at);
  return found ? withDate(found, at) : null;
};

const terminateDetail =
  (type: DetailType) =>
  async (_: unknown, { input }: Args, context: GraphQLContext) => {
    const uuid = await post(context, legacyPaths.detailsTerminate(), {
      type,
      uuid: input.uuid,
      validity: { to: input.to },
    });
    return payload(uuid, null);
  };

/** `details/create` of one record, read back through the unit, else the person, the input names. */
const createDetail =
  (type: Exclude<DetailType, 'related_unit'>, shape: InputShape) =>
  async (_: unknown, { input }: Args, context: GraphQLContext) => {
    const validity = input.validity as ValidityInput;
    const fields = fieldsOf(type, input, 'create', shape);
    const body = defined({ type, uuid: input.uuid ?? undefined, ...fields, validity });
    const uuid = await post(context, legacyPaths.detailsCreate(), body);
    const via = { unit: input.org_unit, employee: canonicalInput(input, shape).person };
    return payload(uuid, () => readDetail(context, type, uuid, validity.from, via));
  };

/** `details/edit` from `validity.from`; read back only when the input names the unit or the employee. */
const updateDetail =
  (type: Exclude<DetailType, 'related_unit'>, shape: InputShape) =>
  async (_: unknown, { input }: Args, context: GraphQLContext) => {
    const validity = input.validity as ValidityInput;
    const data = { ...fieldsOf(type, input, 'update', shape), validity };
    const uuid = await post(context, legacyPaths.detailsEdit(), { type, uuid: input.uuid, data });
    // As v1/v2 always have: an update reads back through its `employee`, not an owner record's `person`.
    const via = { unit: input.org_unit, employee: input.employee };
    return payload(
      uuid,
      via.unit || via.employee ? () => readDetail(context, type, uuid, validity.from, via) : null,
    );
  };

/** Create, update and terminate of every detail type, by its one mapping. */
function detailResolvers() {
  return Object.fromEntries(
    detailMutations.flatMap(({ prefix, type, shape }) => [
      [`${prefix}_create`, createDetail(type, shape)],
      [`${prefix}_update`, updateDetail(type, shape)],
      [`${prefix}_terminate`, terminateDetail(type)],
    ]),
  );
}

function orgUnitResolvers() {
  return {
    org_unit_create: async (_: unknown, { input }: Args, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const fields = fieldsOf('org_unit', input, 'create', asGiven);
      const uuid = await post(
        context,
        legacyPaths.orgUnitCreate(),
        defined({ uuid: input.uuid ?? undefined, ...fields, validity }),
      );
      return payload(uuid, readUnit(context, uuid, validity.from));
    },
    org_unit_update: async (_: unknown, { input }: Args, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      // OS2mo reads the edited unit from `data.uuid`; the top-level `uuid` says the same for older readers.
      const data = { uuid: input.uuid, ...fieldsOf('org_unit', input, 'update', asGiven), validity };
      const path = legacyPaths.detailsEdit();
      const body = { type: 'org_unit', uuid: input.uuid, data };
      // `null` asks to clear, which 2.4.0 cannot for a level: one the unit holds is refused (`unit-clears.ts`).
      const days = { from: validity.from, to: validity.to ?? null };
      await refuseUnbackableClears(context, input, days, { path, body }, 'v1v2');
      const uuid = await post(context, path, body);
      return payload(uuid, readUnit(context, uuid, validity.from));
    },
    org_unit_terminate: async (_: unknown, { input }: Args, context: GraphQLContext) => {
      const uuid = await post(context, legacyPaths.orgUnitTerminate(String(input.uuid)), {
        validity: { to: input.to },
      });
      return payload(uuid, readUnit(context, uuid, String(input.to)));
    },
    related_units_update: async (_: unknown, { input }: Args, context: GraphQLContext) =>
      context.legacy.post<{ added: string[]; deleted: string[]; unchanged: string[] }>(
        legacyPaths.orgUnitMap(String(input.origin)),
        { destination: input.destination, validity: input.validity },
      ),
  };
}

function employeeResolvers() {
  return {
    employee_create: async (_: unknown, { input }: Args, context: GraphQLContext) => {
      const fields = fieldsOf('employee', input, 'create', employeeShape);
      const uuid = await post(
        context,
        legacyPaths.employeeCreate(),
        defined({ uuid: input.uuid ?? undefined, ...fields }),
      );
      return payload(uuid, readEmployee(context, uuid, context.today));
    },
    employee_update: async (_: unknown, { input }: Args, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const data = { ...fieldsOf('employee', input, 'update', employeeShape), validity };
      const uuid = await post(context, legacyPaths.detailsEdit(), {
        type: 'employee',
        uuid: input.uuid,
        data,
      });
      return payload(uuid, readEmployee(context, uuid, validity.from));
    },
    employee_terminate: async (_: unknown, { input }: Args, context: GraphQLContext) => {
      const uuid = await post(context, legacyPaths.employeeTerminate(String(input.uuid)), {
        validity: { to: input.to },
        vacate: input.vacate === true,
      });
      return payload(uuid, readEmployee(context, uuid, String(input.to)));
    },
  };
}

/** The mutations: each is one legacy write, then the written record read back as of the change. */
export function mutationResolvers() {
  return { ...orgUnitResolvers(), ...employeeResolvers(), ...detailResolvers() };
}
