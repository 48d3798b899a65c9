import { legacyPaths } from '../legacy/legacy-paths.js';
import { ComparisonError, errorSentence, statusReason } from './comparison-error.js';
import type { GraphQLRequestBody } from './graphql-request-body.js';
import { os2moData, os2moDocument } from './os2mo-road.js';
import {
  classRef,
  entityRef,
  field,
  isRecord,
  keyedByUuid,
  list,
  single,
  textOf,
  validity,
  type JsonRecord,
  type NormalObject,
} from './normal-form.js';

/** What a comparison is about: org units (the specification's reference workload) or employees. */
export type ComparisonSubject =
  { kind: 'org_units'; uuids: string[] } | { kind: 'employees'; uuids: string[] };

/**
 * The GraphQL versions whose response shapes the comparison reads (v1 lists, v2 pages, v30 OS2mo's
 * responses); the last is the default, the version integrations move to.
 */
export const comparisonVersions = ['v1', 'v2', 'v30'] as const;
export type ComparisonVersion = (typeof comparisonVersions)[number];

/** Most UUIDs one comparison takes: each one costs legacy requests on both sides. */
export const maxSubjectUuids = 100;

/** The answer to one `GET /service/...`: status, size on the wire and the parsed JSON body. */
export interface ServiceResponse {
  status: number;
  bytes: number;
  body: unknown;
}

/** Performs one `GET` of a `/service` path (through the gateway's passthrough, or on the legacy service). */
export type ServiceGet = (path: string) => Promise<ServiceResponse>;

/** One legacy request of the plan as the reports show it, with its raw JSON answer. */
export interface LegacyCallRecord {
  method: 'GET';
  path: string;
  /** Requests of one round are independent and made in parallel; a round starts when the previous one ended. */
  round: number;
  status: number;
  bytes: number;
  duration_ms: number;
  body: unknown;
}

export type { GraphQLRequestBody } from './graphql-request-body.js';

const unique = (values: readonly string[]) => [...new Set(values)];
const isText = (value: unknown): value is string => typeof value === 'string';

/** Records each call of a plan in the order it was started. */
function planRecorder(get: ServiceGet) {
  const calls: LegacyCallRecord[] = [];
  const read = async (round: number, path: string, allowed: readonly number[] = [200]) => {
    const index = calls.length;
    calls.push({ method: 'GET', path, round, status: 0, bytes: 0, duration_ms: 0, body: null });
    const started = performance.now();
    const response = await get(path);
    const call: LegacyCallRecord = {
      method: 'GET',
      path,
      round,
      status: response.status,
      bytes: response.bytes,
      duration_ms: performance.now() - started,
      body: response.body,
    };
    calls[index] = call;
    if (!allowed.includes(response.status)) {
      const reason = errorSentence(response.body);
      throw new ComparisonError(
        statusReason(response.status),
        `GET ${path} answered ${response.status}${reason ? `: ${reason.replace(/\.$/, '')}` : ''}.`,
      );
    }
    return call;
  };
  return { calls, read };
}

/** The GraphQL-shaped unit the reference view compares; both sides are brought into it. */
function unitsNormalForm(units: unknown): NormalObject {
  return {
    org_units: keyedByUuid(units, (unit) => ({
      name: textOf(unit['name']),
      managers: keyedByUuid(unit['managers'], (manager) => {
        const employee = single(manager['employee']);
        return {
          manager_type: classRef(manager['manager_type']),
          employee: isRecord(employee)
            ? {
                ...(entityRef(employee) as NormalObject),
                engagements: keyedByUuid(employee['engagements'], (engagement) => ({
                  job_function: classRef(engagement['job_function']),
                })),
              }
            : null,
        };
      }),
    })),
  };
}

function employeesNormalForm(employees: unknown): NormalObject {
  return {
    employees: keyedByUuid(employees, (employee) => ({
      name: textOf(employee['name']),
      user_key: textOf(employee['user_key']),
      engagements: keyedByUuid(employee['engagements'], (engagement) => ({
        user_key: textOf(engagement['user_key']),
        validity: validity(engagement['validity']),
        job_function: classRef(engagement['job_function']),
        engagement_type: classRef(engagement['engagement_type']),
        org_unit: entityRef(engagement['org_unit']),
      })),
    })),
  };
}

/**
 * The specification's reference plan by hand: every unit's manager listing (which embeds the unit's name,
 * each manager's person and type), then every manager's engagements; a unit without managers needs its own
 * read for its name. A person who manages several units is read once.
 */
async function runUnitsPlan(uuids: string[], get: ServiceGet) {
  const plan = planRecorder(get);
  const listings = await Promise.all(
    uuids.map(async (uuid) => {
      const call = await plan.read(1, legacyPaths.unitDetails('manager', uuid), [200, 404]);
      return { uuid, managers: call.status === 404 ? null : list(call.body).filter(isRecord) };
    }),
  );
  const persons = unique(
    listings
      .flatMap((listing) => listing.managers ?? [])
      .flatMap((manager) => {
        const uuid = field(manager['person'], 'uuid');
        return isText(uuid) ? [uuid] : [];
      }),
  );
  const [names, engagements] = await Promise.all([
    Promise.all(
      listings.map(async ({ uuid, managers }) => {
        if (managers === null) return [uuid, null] as const;
        const embedded = managers[0]?.['org_unit'];
        if (field(embedded, 'uuid') === uuid) return [uuid, field(embedded, 'name')] as const;
        const call = await plan.read(2, legacyPaths.orgUnit(uuid), [200, 404]);
        return [uuid, call.status === 404 ? null : field(call.body, 'name')] as const;
      }),
    ),
    Promise.all(
      persons.map(async (person) => {
        const call = await plan.read(2, legacyPaths.employeeDetails('engagement', person));
        return [person, list(call.body)] as const;
      }),
    ),
  ]);
  const nameOf = new Map(names);
  const engagementsOf = new Map(engagements);
  const units = listings.flatMap(({ uuid, managers }) =>
    managers === null || !isText(nameOf.get(uuid))
      ? []
      : [
          {
            uuid,
            name: nameOf.get(uuid),
            managers: managers.map((manager) => {
              const person = manager['person'];
              return {
                ...manager,
                employee: isRecord(person)
                  ? { ...person, engagements: engagementsOf.get(person['uuid'] as string) ?? [] }
                  : null,
              };
            }),
          },
        ],
  );
  return { calls: plan.calls, normal: unitsNormalForm(units) };
}

/** An employee and their engagements: two independent reads per employee. */
async function runEmployeesPlan(uuids: string[], get: ServiceGet) {
  const plan = planRecorder(get);
  const employees = await Promise.all(
    uuids.map(async (uuid) => {
      const [employee, engagements] = await Promise.all([
        plan.read(1, legacyPaths.employee(uuid), [200, 404]),
        plan.read(1, legacyPaths.employeeDetails('engagement', uuid), [200, 404]),
      ]);
      if (employee.status === 404 || !isRecord(employee.body)) return [];
      return [{ ...employee.body, engagements: list(engagements.body) }];
    }),
  );
  return { calls: plan.calls, normal: employeesNormalForm(employees.flat()) };
}

/** Runs the legacy side of a comparison and returns its calls and its comparable form. */
export function runLegacyPlan(
  subject: ComparisonSubject,
  get: ServiceGet,
): Promise<{ calls: LegacyCallRecord[]; normal: NormalObject }> {
  const uuids = unique(subject.uuids);
  return subject.kind === 'org_units' ? runUnitsPlan(uuids, get) : runEmployeesPlan(uuids, get);
}

const unitsSelection = `objects {
      uuid
      name
      managers {
        uuid
        manager_type {
          user_key
        }
        employee {
          uuid
          name
          engagements {
            uuid
            job_function {
              user_key
            }
          }
        }
      }
    }`;

const employeesSelection = `objects {
      uuid
      name
      user_key
      engagements {
        uuid
        user_key
        validity {
          from
          to
        }
        job_function {
          user_key
        }
        engagement_type {
          user_key
        }
        org_unit {
          uuid
          name
        }
      }
    }`;

/**
 * The one GraphQL query that answers the same data: for units, the specification's reference query plus
 * the UUIDs that line the two sides up. The selection is the same on every version; v2 asks for one page
 * that holds every UUID.
 */
export function comparisonQuery(subject: ComparisonSubject, version: ComparisonVersion): GraphQLRequestBody {
  if (version === 'v30') return os2moDocument(comparisonQuery(subject, 'v2'));
  const uuids = unique(subject.uuids);
  const paged = version !== 'v1';
  const [operationName, root, selection] =
    subject.kind === 'org_units'
      ? ['OrgUnitComparison', 'org_units', unitsSelection]
      : ['EmployeeComparison', 'employees', employeesSelection];
  const query = `query ${operationName}($uuids: [UUID!]${paged ? ', $limit: Int' : ''}) {
  ${root}(filter: { uuids: $uuids }${paged ? ', limit: $limit' : ''}) {
    ${selection}
  }
}
`;
  return { query, operationName, variables: paged ? { uuids, limit: Math.max(uuids.length, 1) } : { uuids } };
}

/**
 * The objects of a collection root field: v1 lists `{uuid, objects}` per entity, v2 pages `{objects}`, v30
 * pages responses, each brought into v2's shape by the OS2mo road's one normalisation.
 */
export function rootObjects(version: ComparisonVersion, value: unknown): JsonRecord[] {
  if (version === 'v30') return rootObjects('v2', os2moData(value));
  const objects =
    version === 'v1'
      ? // The present window holds one validity per entity.
        list(value).flatMap((entity) => list(field(entity, 'objects')).slice(0, 1))
      : list(field(value, 'objects'));
  return objects.filter(isRecord);
}

/** The comparable form of the GraphQL response's `data`. */
export function graphqlNormalForm(
  subject: ComparisonSubject,
  version: ComparisonVersion,
  data: unknown,
): NormalObject {
  return subject.kind === 'org_units'
    ? unitsNormalForm(rootObjects(version, field(data, 'org_units')))
    : employeesNormalForm(rootObjects(version, field(data, 'employees')));
}
