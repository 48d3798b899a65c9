import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import type { DetailType, LegacyRecord } from '../../legacy/legacy-loaders.js';
import { legacyPaths } from '../../legacy/legacy-paths.js';

type Input = Record<string, unknown>;
interface ValidityInput {
  from: string;
  to?: string | null;
}

const ref = (uuid: unknown) => (uuid === undefined ? undefined : uuid === null ? null : { uuid });

/** A list of UUIDs as legacy references; absent stays absent, so an edit keeps the current list. */
const refs = (uuids: unknown) =>
  uuids === undefined ? undefined : ((uuids as string[] | null) ?? []).map((uuid) => ({ uuid }));

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

/** The mutations: each is one legacy write, then the written record read back as of the change. */
export function mutationResolvers() {
  const post = (context: GraphQLContext, path: string, body: unknown) =>
    context.legacy.post<string>(path, body);

  const unit = (context: GraphQLContext, uuid: string, at: string) => async () => {
    const found = await context.legacy.orgUnit(uuid, at);
    return found ? withDate(found, at) : null;
  };
  const employee = (context: GraphQLContext, uuid: string, at: string) => async () => {
    const found = await context.legacy.employee(uuid, at);
    return found ? withDate(found, at) : null;
  };

  const terminateDetail =
    (type: DetailType) =>
    async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const uuid = await post(context, legacyPaths.detailsTerminate(), {
        type,
        uuid: input.uuid,
        validity: { to: input.to },
      });
      return payload(uuid, null);
    };

  /** `details/create` of one record, read back through the unit or person the input names. */
  const createDetail =
    (type: DetailType, fields: (input: Input) => Input, via: (input: Input) => ReadBackVia) =>
    async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const body = defined({
        type,
        uuid: input.uuid ?? undefined,
        user_key: input.user_key ?? undefined,
        ...fields(input),
        validity,
      });
      const uuid = await post(context, legacyPaths.detailsCreate(), body);
      return payload(uuid, () => readDetail(context, type, uuid, validity.from, via(input)));
    };

  /** `details/edit` from `validity.from`; read back only when the input names the unit or the employee. */
  const updateDetail =
    (type: DetailType, fields: (input: Input) => Input) =>
    async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const data = defined({ user_key: input.user_key, ...fields(input), validity });
      const uuid = await post(context, legacyPaths.detailsEdit(), { type, uuid: input.uuid, data });
      const via = { unit: input.org_unit, employee: input.employee };
      return payload(
        uuid,
        via.unit || via.employee ? () => readDetail(context, type, uuid, validity.from, via) : null,
      );
    };

  return {
    org_unit_create: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const uuid = await post(
        context,
        legacyPaths.orgUnitCreate(),
        defined({
          uuid: input.uuid ?? undefined,
          name: input.name,
          user_key: input.user_key ?? undefined,
          parent: ref(input.parent ?? undefined),
          org_unit_type: ref(input.org_unit_type),
          org_unit_level: ref(input.org_unit_level ?? undefined),
          validity,
        }),
      );
      return payload(uuid, unit(context, uuid, validity.from));
    },
    org_unit_update: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      // OS2mo reads the edited unit from `data.uuid`; the top-level `uuid` says the same for older readers.
      const data = defined({
        uuid: input.uuid,
        name: input.name,
        user_key: input.user_key,
        parent: ref(input.parent),
        org_unit_type: ref(input.org_unit_type),
        org_unit_level: ref(input.org_unit_level),
        validity,
      });
      const uuid = await post(context, legacyPaths.detailsEdit(), {
        type: 'org_unit',
        uuid: input.uuid,
        data,
      });
      return payload(uuid, unit(context, uuid, validity.from));
    },
    org_unit_terminate: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const uuid = await post(context, legacyPaths.orgUnitTerminate(String(input.uuid)), {
        validity: { to: input.to },
      });
      return payload(uuid, unit(context, uuid, String(input.to)));
    },
    employee_create: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const uuid = await post(
        context,
        legacyPaths.employeeCreate(),
        defined({
          uuid: input.uuid ?? undefined,
          givenname: input.givenname,
          surname: input.surname,
          user_key: input.user_key ?? undefined,
        }),
      );
      return payload(uuid, employee(context, uuid, context.today));
    },
    employee_update: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const data = defined({
        givenname: input.givenname,
        surname: input.surname,
        user_key: input.user_key,
        validity,
      });
      const uuid = await post(context, legacyPaths.detailsEdit(), {
        type: 'employee',
        uuid: input.uuid,
        data,
      });
      return payload(uuid, employee(context, uuid, validity.from));
    },
    employee_terminate: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const uuid = await post(context, legacyPaths.employeeTerminate(String(input.uuid)), {
        validity: { to: input.to },
        vacate: input.vacate === true,
      });
      return payload(uuid, employee(context, uuid, String(input.to)));
    },
    engagement_create: createDetail(
      'engagement',
      (input) => ({
        person: ref(input.employee),
        org_unit: ref(input.org_unit),
        job_function: ref(input.job_function),
        engagement_type: ref(input.engagement_type),
      }),
      (input) => ({ unit: input.org_unit }),
    ),
    engagement_update: updateDetail('engagement', (input) => ({
      person: ref(input.employee),
      org_unit: ref(input.org_unit),
      job_function: ref(input.job_function),
      engagement_type: ref(input.engagement_type),
    })),
    engagement_terminate: terminateDetail('engagement'),
    manager_create: createDetail(
      'manager',
      (input) => ({
        person: ref(input.employee ?? null),
        org_unit: ref(input.org_unit),
        manager_type: ref(input.manager_type),
        manager_level: ref(input.manager_level),
        responsibility: refs(input.responsibility) ?? [],
      }),
      (input) => ({ unit: input.org_unit }),
    ),
    manager_update: updateDetail('manager', (input) => ({
      person: ref(input.employee),
      org_unit: ref(input.org_unit),
      manager_type: ref(input.manager_type),
      manager_level: ref(input.manager_level),
      responsibility: refs(input.responsibility),
    })),
    manager_terminate: terminateDetail('manager'),
    owner_create: createDetail(
      'owner',
      (input) => ({
        owner: ref(input.owner),
        org_unit: ref(input.org_unit ?? undefined),
        person: ref(input.person ?? undefined),
      }),
      (input) => ({ unit: input.org_unit, employee: input.person }),
    ),
    owner_update: updateDetail('owner', (input) => ({
      owner: ref(input.owner),
      org_unit: ref(input.org_unit),
      person: ref(input.person),
    })),
    owner_terminate: terminateDetail('owner'),
    ituser_create: createDetail(
      'it',
      (input) => ({
        itsystem: ref(input.itsystem),
        person: ref(input.employee ?? undefined),
        org_unit: ref(input.org_unit ?? undefined),
      }),
      (input) => ({ unit: input.org_unit, employee: input.employee }),
    ),
    ituser_update: updateDetail('it', (input) => ({
      itsystem: ref(input.itsystem),
      person: ref(input.employee),
      org_unit: ref(input.org_unit),
    })),
    ituser_terminate: terminateDetail('it'),
    address_create: createDetail(
      'address',
      (input) => ({
        address_type: ref(input.address_type),
        value: input.value,
        value2: input.value2 ?? undefined,
        visibility: ref(input.visibility ?? undefined),
        person: ref(input.employee ?? undefined),
        org_unit: ref(input.org_unit ?? undefined),
        engagement: ref(input.engagement ?? undefined),
      }),
      (input) => ({ unit: input.org_unit, employee: input.employee }),
    ),
    address_update: updateDetail('address', (input) => ({
      address_type: ref(input.address_type),
      value: input.value,
      value2: input.value2,
      visibility: ref(input.visibility),
      person: ref(input.employee),
      org_unit: ref(input.org_unit),
      engagement: ref(input.engagement),
    })),
    address_terminate: terminateDetail('address'),
    association_create: createDetail(
      'association',
      (input) => ({
        person: ref(input.employee ?? null),
        org_unit: ref(input.org_unit),
        association_type: ref(input.association_type),
        primary: ref(input.primary ?? undefined),
        dynamic_classes: refs(input.dynamic_classes ?? undefined),
        substitute: ref(input.substitute ?? undefined),
      }),
      (input) => ({ unit: input.org_unit }),
    ),
    association_update: updateDetail('association', (input) => ({
      person: ref(input.employee),
      org_unit: ref(input.org_unit),
      association_type: ref(input.association_type),
      primary: ref(input.primary),
      dynamic_classes: refs(input.dynamic_classes),
      substitute: ref(input.substitute),
    })),
    association_terminate: terminateDetail('association'),
    role_create: createDetail(
      'role',
      (input) => ({
        person: ref(input.employee),
        org_unit: ref(input.org_unit),
        role_type: ref(input.role_type),
      }),
      (input) => ({ unit: input.org_unit }),
    ),
    role_update: updateDetail('role', (input) => ({
      person: ref(input.employee),
      org_unit: ref(input.org_unit),
      role_type: ref(input.role_type),
    })),
    role_terminate: terminateDetail('role'),
    leave_create: createDetail(
      'leave',
      (input) => ({
        person: ref(input.employee),
        leave_type: ref(input.leave_type),
        engagement: ref(input.engagement ?? undefined),
      }),
      (input) => ({ employee: input.employee }),
    ),
    leave_update: updateDetail('leave', (input) => ({
      person: ref(input.employee),
      leave_type: ref(input.leave_type),
      engagement: ref(input.engagement),
    })),
    leave_terminate: terminateDetail('leave'),
    // OS2mo's graph calls the aspects `kle_aspects`; the Service API's body, `kle_aspect`.
    kle_create: createDetail(
      'kle',
      (input) => ({
        org_unit: ref(input.org_unit),
        kle_number: ref(input.kle_number),
        kle_aspect: refs(input.kle_aspects),
      }),
      (input) => ({ unit: input.org_unit }),
    ),
    kle_update: updateDetail('kle', (input) => ({
      org_unit: ref(input.org_unit),
      kle_number: ref(input.kle_number),
      kle_aspect: refs(input.kle_aspects),
    })),
    kle_terminate: terminateDetail('kle'),
    engagement_association_create: createDetail(
      'engagement_association',
      (input) => ({
        engagement: ref(input.engagement),
        org_unit: ref(input.org_unit),
        engagement_association_type: ref(input.engagement_association_type),
      }),
      (input) => ({ unit: input.org_unit }),
    ),
    engagement_association_update: updateDetail('engagement_association', (input) => ({
      engagement: ref(input.engagement),
      org_unit: ref(input.org_unit),
      engagement_association_type: ref(input.engagement_association_type),
    })),
    engagement_association_terminate: terminateDetail('engagement_association'),
    related_units_update: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) =>
      context.legacy.post<{ added: string[]; deleted: string[]; unchanged: string[] }>(
        legacyPaths.orgUnitMap(String(input.origin)),
        { destination: input.destination, validity: input.validity },
      ),
  };
}
