import { Hono, type Context } from 'hono';
import { invalid } from '../errors.js';
import { isUuid } from '../input.js';
import { collections, detailCollection, detailTypes, type DetailType, type Temporal } from '../model.js';
import type { OrgData } from '../org-data.js';
import { registeredAfter } from '../registration.js';
import type { StoredEntity } from '../store/index.js';
import { matchesValidity, resolutionDate } from '../time.js';
import { DetailViews, employeeView, orgUnitView, validityOf } from '../views.js';
import { readFlag, readTimeParams, type TimeParams } from './read-params.js';

export interface ReadingApiOptions {
  data: OrgData;
  clock: () => Date;
}

/** OS2mo's default time zone (`mora.util.DEFAULT_TIMEZONE`): a time written without an offset is read in it. */
const defaultTimeZone = 'Europe/Copenhagen';

const changedSincePattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Minutes `timeZone` is ahead of UTC at `instant`. */
function zoneOffsetMinutes(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const field = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  const local = Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'));
  return Math.round((local - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

/**
 * `changed_since` as 2.4.0 reads it (`Optional[Union[date, datetime]]`, then `date_to_datetime`): a date is
 * its midnight, a date-time without an offset is in Copenhagen time. Anything else is OS2mo's request
 * validation error.
 */
export function readChangedSince(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const match = changedSincePattern.exec(value);
  const refuse = () =>
    invalid.input([{ key: 'changed_since', message: 'must be an ISO 8601 date or date-time' }]);
  if (!match) throw refuse();
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] = match;
  const wallClock = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
    Number(fraction.padEnd(3, '0').slice(0, 3)),
  );
  const asUtc = new Date(wallClock);
  if (
    Number.isNaN(wallClock) ||
    asUtc.getUTCDate() !== Number(day) ||
    asUtc.getUTCMonth() !== Number(month) - 1 ||
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second) > 59
  ) {
    throw refuse();
  }
  if (zone === undefined) return new Date(wallClock - zoneOffsetMinutes(wallClock, defaultTimeZone) * 60_000);
  if (zone === 'Z') return asUtc;
  const sign = zone.startsWith('-') ? -1 : 1;
  const [hours, minutes] = [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
  return new Date(wallClock - sign * (hours * 60 + minutes) * 60_000);
}

/** The `uuid` query parameters of a `by_uuid` read: at least one, each a UUID (2.4.0: `List[UUID] = Query(...)`). */
function readUuids(c: Context): Set<string> {
  const values = c.req.queries('uuid') ?? [];
  if (values.length === 0) throw invalid.input([{ key: 'uuid', message: 'is required' }]);
  const bad = values.filter((value) => !isUuid(value));
  if (bad.length > 0) throw invalid.input(bad.map(() => ({ key: 'uuid', message: 'must be a UUID' })));
  return new Set(values.map((value) => value.toLowerCase()));
}

/** An optional UUID filter of a listing (`org_unit` of engagement associations). */
function readOptionalUuid(c: Context, key: string): string | undefined {
  const value = c.req.query(key);
  if (value === undefined) return undefined;
  if (!isUuid(value)) throw invalid.input([{ key, message: 'must be a UUID' }]);
  return value.toLowerCase();
}

interface Selection {
  time: TimeParams;
  uuids?: Set<string>;
  changedSince?: Date;
  /** Keeps a version by its stored fields (`engagement`, `org_unit` of the two listings that filter). */
  keep?: (version: Record<string, unknown>) => boolean;
}

/** The stored objects of a collection a read selects, in UUID order, each with its versions in the validity asked for. */
function select(
  entities: Iterable<StoredEntity>,
  { time, uuids, changedSince, keep }: Selection,
): { uuid: string; version: Temporal<Record<string, unknown>>['versions'][number] }[] {
  const chosen: StoredEntity[] = [];
  for (const entity of entities) {
    if (uuids !== undefined && !uuids.has(entity.uuid)) continue;
    if (changedSince !== undefined && !registeredAfter(entity, changedSince)) continue;
    chosen.push(entity);
  }
  chosen.sort((a, b) => a.uuid.localeCompare(b.uuid));
  return chosen.flatMap((entity) =>
    (entity as unknown as Temporal<Record<string, unknown>>).versions
      .filter((version) => matchesValidity(version, time.validity, time.at))
      .filter((version) => keep === undefined || keep(version))
      .map((version) => ({ uuid: entity.uuid, version })),
  );
}

/**
 * OS2mo 2.4.0's reading API for integrations (`backend/mora/api/v1/reading_endpoints.py`, mounted at `/api/v1`):
 * per detail type `/{type}` (every record; `changed_since` keeps the objects written after it) and
 * `/{type}/by_uuid?uuid=…&uuid=…`, and the same for `employee` and `org_unit`. Records are the ones
 * `/service/{ou|e}/{uuid}/details/{type}` shows; `at` and `validity` as there. As in FastAPI, query parameters
 * an endpoint does not declare are ignored: the detail types' `by_uuid` takes no `changed_since`.
 */
export function readingApiRoutes({ data, clock }: ReadingApiOptions): Hono {
  const app = new Hono({ strict: false });

  const detailRecords = (c: Context, type: DetailType, selection: Selection) => {
    const views = new DetailViews(data, {
      at: selection.time.at,
      onlyPrimaryUuid: readFlag(c, 'only_primary_uuid'),
    });
    return select(data.store.all(detailCollection[type]), selection).map(({ uuid, version }) =>
      views.render(type, uuid, version),
    );
  };

  for (const type of detailTypes) {
    app.get(`/${type}`, (c) => {
      const time = readTimeParams(c, clock);
      const changedSince = readChangedSince(c.req.query('changed_since'));
      // 2.4.0's address listing takes `engagement` (a string); engagement associations `engagement` and `org_unit`.
      const engagement =
        type === 'address'
          ? c.req.query('engagement')
          : type === 'engagement_association'
            ? readOptionalUuid(c, 'engagement')
            : undefined;
      const orgUnit = type === 'engagement_association' ? readOptionalUuid(c, 'org_unit') : undefined;
      const keep = (version: Record<string, unknown>) =>
        (engagement === undefined || version.engagement === engagement) &&
        (orgUnit === undefined || version.org_unit === orgUnit);
      return c.json(detailRecords(c, type, { time, changedSince, keep }));
    });
    app.get(`/${type}/by_uuid`, (c) => {
      const uuids = readUuids(c);
      const time = readTimeParams(c, clock);
      return c.json(detailRecords(c, type, { time, uuids }));
    });
  }

  const orgUnits = (selection: Selection) =>
    select(data.store.all(collections.orgUnit), selection).map(({ uuid, version }) => {
      const unit = data.orgUnit(uuid);
      const unitVersion = version as unknown as (typeof unit.versions)[number];
      return orgUnitView(data, unit, unitVersion, resolutionDate(unitVersion, selection.time.at));
    });
  const employees = (selection: Selection) =>
    select(data.store.all(collections.employee), selection).map(({ uuid, version }) => {
      const employeeVersion = version as unknown as ReturnType<typeof data.employee>['versions'][number];
      return { ...employeeView(data, uuid, employeeVersion), validity: validityOf(employeeVersion) };
    });

  for (const [path, read] of [
    ['org_unit', orgUnits],
    ['employee', employees],
  ] as const) {
    app.get(`/${path}`, (c) =>
      c.json(
        read({
          time: readTimeParams(c, clock),
          changedSince: readChangedSince(c.req.query('changed_since')),
        }),
      ),
    );
    // Unlike the detail types', these take `changed_since` with `uuid` (2.4.0's `role_type_uuid_factory`).
    app.get(`/${path}/by_uuid`, (c) => {
      const uuids = readUuids(c);
      return c.json(
        read({
          time: readTimeParams(c, clock),
          uuids,
          changedSince: readChangedSince(c.req.query('changed_since')),
        }),
      );
    });
  }

  return app;
}
