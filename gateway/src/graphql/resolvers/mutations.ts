import type { GraphQLContext, Source } from '../context.js';
import { withDate } from '../context.js';
import { legacyErrors } from '../errors.js';
import type { DetailType, LegacyRecord } from '../legacy-loaders.js';

type Input = Record<string, unknown>;
interface ValidityInput {
  from: string;
  to?: string | null;
}

const ref = (uuid: unknown) => (uuid === undefined ? undefined : uuid === null ? null : { uuid });

/** Drops members the caller left out, so the legacy edit keeps their current values. */
function defined(body: Input): Input {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** A payload whose `object` is read back lazily, only when the query selects it. */
function payload(uuid: string, readBack: (() => Promise<Source | null>) | null) {
  return { uuid, object: readBack ? () => legacyErrors(readBack) : null };
}

/** Reads a detail record back through its unit or its employee, as of `at`. */
async function readDetail(
  context: GraphQLContext,
  type: DetailType,
  uuid: string,
  at: string,
  via: { unit?: unknown; employee?: unknown },
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
    legacyErrors(() => context.legacy.post<string>(path, body));

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
      const uuid = await post(context, '/service/details/terminate', {
        type,
        uuid: input.uuid,
        validity: { to: input.to },
      });
      return payload(uuid, null);
    };

  return {
    org_unit_create: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const uuid = await post(
        context,
        '/service/ou/create',
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
      const data = defined({
        name: input.name,
        user_key: input.user_key,
        parent: ref(input.parent),
        org_unit_type: ref(input.org_unit_type),
        org_unit_level: ref(input.org_unit_level),
        validity,
      });
      const uuid = await post(context, '/service/details/edit', { type: 'org_unit', uuid: input.uuid, data });
      return payload(uuid, unit(context, uuid, validity.from));
    },
    org_unit_terminate: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const uuid = await post(context, `/service/ou/${String(input.uuid)}/terminate`, {
        validity: { to: input.to },
      });
      return payload(uuid, unit(context, uuid, String(input.to)));
    },
    employee_create: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const uuid = await post(
        context,
        '/service/e/create',
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
      const uuid = await post(context, '/service/details/edit', { type: 'employee', uuid: input.uuid, data });
      return payload(uuid, employee(context, uuid, validity.from));
    },
    employee_terminate: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const uuid = await post(context, `/service/e/${String(input.uuid)}/terminate`, {
        validity: { to: input.to },
        vacate: input.vacate === true,
      });
      return payload(uuid, employee(context, uuid, String(input.to)));
    },
    engagement_create: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const uuid = await post(
        context,
        '/service/details/create',
        defined({
          type: 'engagement',
          uuid: input.uuid ?? undefined,
          user_key: input.user_key ?? undefined,
          person: ref(input.employee),
          org_unit: ref(input.org_unit),
          job_function: ref(input.job_function),
          engagement_type: ref(input.engagement_type),
          validity,
        }),
      );
      return payload(uuid, () =>
        readDetail(context, 'engagement', uuid, validity.from, { unit: input.org_unit }),
      );
    },
    engagement_update: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const data = defined({
        user_key: input.user_key,
        person: ref(input.employee),
        org_unit: ref(input.org_unit),
        job_function: ref(input.job_function),
        engagement_type: ref(input.engagement_type),
        validity,
      });
      const uuid = await post(context, '/service/details/edit', {
        type: 'engagement',
        uuid: input.uuid,
        data,
      });
      const via = { unit: input.org_unit, employee: input.employee };
      return payload(
        uuid,
        via.unit || via.employee ? () => readDetail(context, 'engagement', uuid, validity.from, via) : null,
      );
    },
    engagement_terminate: terminateDetail('engagement'),
    manager_create: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const uuid = await post(
        context,
        '/service/details/create',
        defined({
          type: 'manager',
          uuid: input.uuid ?? undefined,
          user_key: input.user_key ?? undefined,
          person: ref(input.employee ?? null),
          org_unit: ref(input.org_unit),
          manager_type: ref(input.manager_type),
          manager_level: ref(input.manager_level),
          responsibility: ((input.responsibility as string[] | null | undefined) ?? []).map((uuid) => ({
            uuid,
          })),
          validity,
        }),
      );
      return payload(uuid, () =>
        readDetail(context, 'manager', uuid, validity.from, { unit: input.org_unit }),
      );
    },
    manager_update: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const data = defined({
        user_key: input.user_key,
        person: ref(input.employee),
        org_unit: ref(input.org_unit),
        manager_type: ref(input.manager_type),
        manager_level: ref(input.manager_level),
        responsibility:
          input.responsibility === undefined
            ? undefined
            : ((input.responsibility as string[] | null) ?? []).map((uuid) => ({ uuid })),
        validity,
      });
      const uuid = await post(context, '/service/details/edit', { type: 'manager', uuid: input.uuid, data });
      const via = { unit: input.org_unit, employee: input.employee };
      return payload(
        uuid,
        via.unit || via.employee ? () => readDetail(context, 'manager', uuid, validity.from, via) : null,
      );
    },
    manager_terminate: terminateDetail('manager'),
    owner_create: async (_: unknown, { input }: { input: Input }, context: GraphQLContext) => {
      const validity = input.validity as ValidityInput;
      const uuid = await post(
        context,
        '/service/details/create',
        defined({
          type: 'owner',
          uuid: input.uuid ?? undefined,
          owner: ref(input.owner),
          org_unit: ref(input.org_unit ?? undefined),
          person: ref(input.person ?? undefined),
          validity,
        }),
      );
      return payload(uuid, () =>
        readDetail(context, 'owner', uuid, validity.from, { unit: input.org_unit, employee: input.person }),
      );
    },
    owner_terminate: terminateDetail('owner'),
  };
}
