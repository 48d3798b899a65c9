import { Hono, type Context } from 'hono';
import { invalid, LegacyError, notFound } from '../errors.js';
import { readIntParam, requireUuid } from '../input.js';
import { detailTypes, type ClassRecord, type OrgUnit, type DetailType, type Temporal } from '../model.js';
import type { OrgData } from '../org-data.js';
import { matchesValidity, resolutionDate, versionAt } from '../time.js';
import {
  classFullView,
  classView,
  validityOf,
  DetailViews,
  employeeListItem,
  employeeView,
  facetRef,
  organisationRef,
  orgUnitListItem,
  orgUnitView,
} from '../views.js';
import { readChangedSince, readFlag, readTimeParams, type TimeParams } from './read-params.js';
import { registeredAfter } from '../registration.js';
import type { StoredEntity } from '../store/index.js';

export interface ReadRouteOptions {
  data: OrgData;
  clock: () => Date;
}

interface Page<T> {
  items: T[];
  offset: number;
  total: number;
}

function page<T>(items: T[], start: number, limit: number): Page<T> {
  return {
    items: limit === 0 ? items.slice(start) : items.slice(start, start + limit),
    offset: start,
    total: items.length,
  };
}

/** The unit and employee listings' paging (`start`; `limit`, 0 for all) and search (`query`). */
function readListingParams(c: Context) {
  return {
    start: readIntParam('start', c.req.query('start'), 0),
    limit: readIntParam('limit', c.req.query('limit'), 0),
    query: c.req.query('query') ?? '',
  };
}

function byNameThenUuid(a: { name: string; uuid: string }, b: { name: string; uuid: string }): number {
  return a.name.localeCompare(b.name, 'en') || a.uuid.localeCompare(b.uuid);
}

function matchesQuery(query: string, ...values: string[]): boolean {
  const needle = query.toLowerCase();
  return values.some((value) => value.toLowerCase().includes(needle));
}

type Owner = 'ou' | 'e';

/**
 * `org_unit_hierarchy=<class uuid>` on the children reads: only units in that hierarchy (2.4.0 `service/orgunit.py`
 * line 746, LoRa's `opmærkning`); absent or empty keeps every unit.
 */
function readHierarchyFilter(c: Context): (version: { org_unit_hierarchy?: string | null }) => boolean {
  const value = c.req.query('org_unit_hierarchy');
  if (value === undefined || value === '') return () => true;
  const hierarchy = requireUuid('org_unit_hierarchy', value);
  return (version) => version.org_unit_hierarchy === hierarchy;
}

/** Every read endpoint of `/service`. */
export function readRoutes({ data, clock }: ReadRouteOptions): Hono {
  const app = new Hono({ strict: false });

  const matching = <A>(entities: Temporal<A>[], time: TimeParams) =>
    entities.flatMap((entity) =>
      entity.versions
        .filter((version) => matchesValidity(version, time.validity, time.at))
        .map((version) => ({ uuid: entity.uuid, version })),
    );

  /** The field that ties a record to a unit (`org_unit`, or either of `org_units`) or to a person. */
  const belongsTo = (version: Record<string, unknown>, owner: Owner, uuid: string) => {
    if (owner === 'e') return version.person === uuid;
    return (
      version.org_unit === uuid || (Array.isArray(version.org_units) && version.org_units.includes(uuid))
    );
  };

  const detailRecords = (
    type: DetailType,
    owner: Owner,
    uuid: string,
    time: TimeParams,
    changedSince?: Date,
  ) => {
    const entities = (
      owner === 'ou'
        ? data.detailsOfUnit<{ [k: string]: unknown }>(type, uuid)
        : data.detailsOfPerson<{ [k: string]: unknown }>(type, uuid)
    ).filter(
      (entity) =>
        changedSince === undefined || registeredAfter(entity as unknown as StoredEntity, changedSince),
    );
    return matching(entities, time)
      .filter(({ version }) => belongsTo(version as unknown as Record<string, unknown>, owner, uuid))
      .sort((a, b) => a.version.from.localeCompare(b.version.from) || a.uuid.localeCompare(b.uuid));
  };

  /** With `inherit_manager=1`/`inherit_owner=1`, a unit without its own records shows its nearest ancestor's. */
  const inheritedUnitRecords = (
    type: DetailType,
    unitUuid: string,
    time: TimeParams,
    changedSince?: Date,
  ) => {
    const seen = new Set<string>();
    let current: string | null = unitUuid;
    while (current !== null && !seen.has(current)) {
      seen.add(current);
      const records = detailRecords(type, 'ou', current, time, changedSince);
      if (records.length > 0) return records;
      const unit = data.findOrgUnit(current);
      current = (unit && versionAt(unit, time.at)?.parent) ?? null;
    }
    return [];
  };

  app.get('/o', (c) => c.json(data.organisations().map(organisationRef)));

  app.get('/o/:org', (c) => {
    const organisation = data.organisation(requireUuid('org', c.req.param('org')));
    const time = readTimeParams(c, clock);
    const units = data.orgUnits().filter((unit) => versionAt(unit, time.at));
    return c.json({
      ...organisationRef(organisation),
      child_count: units.filter((unit) => versionAt(unit, time.at)?.parent === null).length,
      unit_count: units.length,
      person_count: data.employees().filter((employee) => versionAt(employee, time.at)).length,
      ...Object.fromEntries(
        (['engagement', 'association', 'leave', 'role', 'manager'] as const).map((type) => [
          `${type}_count`,
          data.countActive(type, time.at),
        ]),
      ),
    });
  });

  app.get('/o/:org/ou', (c) => {
    data.organisation(requireUuid('org', c.req.param('org')));
    const time = readTimeParams(c, clock);
    const { start, limit, query } = readListingParams(c);
    // `root` keeps the units at or below it; `details=path` adds the location, `details=nchildren` the count.
    const root = c.req.query('root');
    const details = c.req.query('details');
    const underRoot = (unit: OrgUnit) => {
      if (!root) return true;
      const seen = new Set<string>();
      for (let current: OrgUnit | undefined = unit; current && !seen.has(current.uuid);) {
        if (current.uuid === root) return true;
        seen.add(current.uuid);
        const parent: string | null | undefined = versionAt(current, time.at)?.parent;
        current = parent ? data.findOrgUnit(parent) : undefined;
      }
      return false;
    };
    const items = data
      .orgUnits()
      .flatMap((unit) => {
        const version = versionAt(unit, time.at);
        if (!version || (query && !matchesQuery(query, version.name, version.user_key, unit.uuid))) return [];
        return underRoot(unit) ? [{ unit, version, name: version.name, uuid: unit.uuid }] : [];
      })
      .sort(byNameThenUuid);
    const listed = page(items, start, limit);
    return c.json({
      ...listed,
      items: listed.items.map(({ unit, version }) => {
        const { child_count: children, ...item } = orgUnitListItem(data, unit, version, time.at);
        if (details === 'nchildren') return { ...item, child_count: children };
        if (details === 'path')
          return { ...item, location: orgUnitView(data, unit, version, time.at).location };
        // OS2mo's plain search items carry no child count.
        return item;
      }),
    });
  });

  app.get('/o/:org/children', (c) => {
    const org = requireUuid('org', c.req.param('org'));
    // OS2mo reads any other UUID here as a unit.
    if (!data.organisations().some((organisation) => organisation.uuid === org)) throw notFound.orgUnit(org);
    const time = readTimeParams(c, clock);
    const inHierarchy = readHierarchyFilter(c);
    const roots = data.orgUnits().flatMap((unit) => {
      const version = versionAt(unit, time.at);
      return version && version.parent === null && inHierarchy(version)
        ? [orgUnitListItem(data, unit, version, time.at)]
        : [];
    });
    return c.json(roots.sort(byNameThenUuid));
  });

  // OS2mo lists its one organisation's people whatever organisation the path names.
  app.get('/o/:org/e', (c) => {
    requireUuid('org', c.req.param('org'));
    const time = readTimeParams(c, clock);
    const { start, limit, query } = readListingParams(c);
    const items = data
      .employees()
      .flatMap((employee) => {
        const version = versionAt(employee, time.at);
        if (!version) return [];
        const item = employeeListItem(data, employee.uuid, version);
        // A CPR number matches only in full, as in OS2mo.
        const found = /^\d{10}$/.test(query)
          ? item.cpr_no === query
          : matchesQuery(query, item.name, item.user_key, item.uuid);
        return query && !found ? [] : [item];
      })
      .sort(byNameThenUuid);
    return c.json(page(items, start, limit));
  });

  app.get('/o/:org/it', (c) => {
    data.organisation(requireUuid('org', c.req.param('org')));
    const systems = data
      .itSystems()
      .map(({ uuid, name, user_key, system_type }) => ({ uuid, name, user_key, system_type }));
    return c.json(systems.sort(byNameThenUuid));
  });

  // OS2mo lists the facets of its organisation; another organisation has none.
  app.get('/o/:org/f', (c) => {
    const org = requireUuid('org', c.req.param('org'));
    if (!data.organisations().some((organisation) => organisation.uuid === org)) return c.json([]);
    return c.json(
      data
        .facets()
        .map((facet) => ({ ...facetRef(facet), path: `/o/${org}/f/${facet.user_key}/` }))
        .sort((a, b) => a.user_key.localeCompare(b.user_key)),
    );
  });

  /**
   * A class with the details OS2mo adds on request (`?full_name=1&top_level_facet=1&facet=1`); any other
   * argument than those and `allowed` is OS2mo's `E_INVALID_INPUT`.
   */
  const classDetails = (c: Context, allowed: string[]) => {
    const asked = Object.keys(c.req.query()).filter((name) => !allowed.includes(name));
    const unknown = asked.filter((name) => !['full_name', 'top_level_facet', 'facet'].includes(name));
    if (unknown.length > 0) {
      throw invalid.input(unknown.map((key) => ({ key, message: 'is not an argument of this endpoint' })));
    }
    // OS2mo adds a detail when its argument is there at all (`?full_name&facet`), whatever its value.
    const wanted = new Set(asked);
    return (record: ClassRecord, always: string[] = []) => {
      const full = classFullView(data, record);
      const view: Record<string, unknown> = classView(record);
      for (const detail of ['full_name', 'top_level_facet', 'facet'] as const) {
        if (wanted.has(detail) || always.includes(detail)) view[detail] = full[detail];
      }
      return view;
    };
  };

  const classListing = (c: Context, org: string | null) => {
    const facet = data.facet(c.req.param('facet')!);
    const start = readIntParam('start', c.req.query('start'), 0);
    const limit = readIntParam('limit', c.req.query('limit'), 0);
    const show = classDetails(c, ['start', 'limit', 'only_primary_uuid', 'at', 'validity']);
    const classes = data
      .classesOf(facet.uuid)
      .sort(byNameThenUuid)
      .map((record) => (readFlag(c, 'only_primary_uuid') ? { uuid: record.uuid } : show(record)));
    return {
      ...facetRef(facet),
      ...(org === null ? {} : { path: `/o/${org}/f/${facet.user_key}/` }),
      data: page(classes, start, limit),
    };
  };

  app.get('/o/:org/f/:facet', (c) => {
    const org = requireUuid('org', c.req.param('org'));
    data.organisation(org);
    return c.json(classListing(c, org));
  });

  app.get('/f/:facet', (c) => c.json(classListing(c, null)));

  app.get('/ou/:uuid', (c) => {
    const uuid = requireUuid('uuid', c.req.param('uuid'));
    const time = readTimeParams(c, clock);
    const unit = data.orgUnit(uuid);
    const version = versionAt(unit, time.at);
    if (!version) throw notFound.orgUnit(uuid);
    return c.json(orgUnitView(data, unit, version, time.at));
  });

  app.get('/ou/:uuid/children', (c) => {
    const uuid = requireUuid('uuid', c.req.param('uuid'));
    const time = readTimeParams(c, clock);
    const inHierarchy = readHierarchyFilter(c);
    data.orgUnit(uuid);
    const children = data.childrenOf(uuid, time.at).flatMap((child) => {
      const version = versionAt(child, time.at);
      return version && inHierarchy(version) ? [orgUnitListItem(data, child, version, time.at)] : [];
    });
    return c.json(children.sort(byNameThenUuid));
  });

  app.get('/e/:uuid', (c) => {
    const uuid = requireUuid('uuid', c.req.param('uuid'));
    const time = readTimeParams(c, clock);
    const employee = data.employee(uuid);
    const version = versionAt(employee, time.at);
    if (!version) throw notFound.employee(uuid);
    return c.json(employeeView(data, uuid, version));
  });

  app.get('/c/:uuid', (c) => {
    const record = data.class(requireUuid('uuid', c.req.param('uuid')));
    if (readFlag(c, 'only_primary_uuid')) return c.json({ uuid: record.uuid });
    return c.json(classDetails(c, ['only_primary_uuid'])(record));
  });

  /** OS2mo's class children: name, user key and how many children each has in turn. */
  const classChildren = (classes: ClassRecord[]) =>
    classes
      .map((child) => ({
        uuid: child.uuid,
        name: child.name,
        user_key: child.user_key,
        child_count: data.childClassesOf(child.uuid).length,
      }))
      .sort(byNameThenUuid);

  app.get('/c/:uuid/children', (c) => {
    const record = data.class(requireUuid('uuid', c.req.param('uuid')));
    readTimeParams(c, clock);
    return c.json(classChildren(data.childClassesOf(record.uuid)));
  });

  app.get('/f/:facet/children', (c) => {
    const facet = data.facet(c.req.param('facet'));
    readTimeParams(c, clock);
    return c.json(classChildren(data.classesOf(facet.uuid).filter((record) => !record.parent)));
  });

  /**
   * `details/org_unit` of a unit and `details/employee` of a person: the object itself, one full record per
   * version the validity filter keeps (OS2mo's org unit and employee readers). Asked of the other kind of
   * object, OS2mo answers `E_INVALID_ROLE_TYPE`.
   */
  const ownVersions = (owner: Owner, type: 'org_unit' | 'employee', uuid: string, c: Context) => {
    if ((owner === 'ou') !== (type === 'org_unit')) {
      throw new LegacyError(400, 'E_INVALID_ROLE_TYPE', 'Invalid role type for target operation.', { type });
    }
    const time = readTimeParams(c, clock);
    const changedSince = readChangedSince(c.req.query('changed_since'));
    const changed = (entity: object) =>
      changedSince === undefined || registeredAfter(entity as StoredEntity, changedSince);
    if (type === 'org_unit') {
      const unit = data.findOrgUnit(uuid);
      if (!unit || !changed(unit)) return [];
      return unit.versions
        .filter((version) => matchesValidity(version, time.validity, time.at))
        .map((version) => orgUnitView(data, unit, version, resolutionDate(version, time.at)));
    }
    const employee = data.findEmployee(uuid);
    if (!employee || !changed(employee)) return [];
    return employee.versions
      .filter((version) => matchesValidity(version, time.validity, time.at))
      .map((version) => ({ ...employeeView(data, uuid, version), validity: validityOf(version) }));
  };

  /**
   * OS2mo's `first_party_perspective` on a person's associations: their own, each with who stands in for
   * them, followed by the associations they stand in for, each with whom they stand in for.
   */
  const firstPartyPerspective = (
    owner: Owner,
    uuid: string,
    time: TimeParams,
    views: DetailViews,
    own: unknown[],
  ) => {
    if (owner !== 'e')
      throw invalid.input([{ key: 'first_party_perspective', message: 'only for a person' }]);
    const substituteAssociation = { name: 'i18n:substitute_association' };
    const first = (own as Record<string, unknown>[]).map((record) => ({
      ...record,
      first_party_association_type: record.association_type,
      third_party_associated: record.substitute,
      third_party_association_type: record.substitute ? substituteAssociation : null,
    }));
    const standingIn = matching(
      [...data.store.all('association')] as unknown as Temporal<{ substitute: string | null }>[],
      time,
    )
      .filter(({ version }) => version.substitute === uuid)
      .map(
        ({ uuid: recordUuid, version }) =>
          views.render('association', recordUuid, version) as Record<string, unknown>,
      )
      .map((record) => ({
        ...record,
        first_party_association_type: record.substitute ? substituteAssociation : null,
        third_party_associated: record.person,
        third_party_association_type: record.association_type,
      }));
    return [...first, ...standingIn];
  };

  for (const owner of ['ou', 'e'] as const) {
    /** Which detail types hold any record (past, present or future), as OS2mo answers `/details/`. */
    app.get(`/${owner}/:uuid/details`, (c) => {
      const uuid = requireUuid('uuid', c.req.param('uuid'));
      const present = Object.fromEntries(
        detailTypes.map((type) => [
          type,
          (owner === 'ou' ? data.detailsOfUnit(type, uuid) : data.detailsOfPerson(type, uuid)).length > 0,
        ]),
      );
      return c.json({ ...present, org_unit: owner === 'ou' && data.findOrgUnit(uuid) !== undefined });
    });

    // OS2mo looks records up by the owner's UUID without checking the owner: an unknown one has none.
    const readDetails = (c: Context, type: string) => {
      const uuid = requireUuid('uuid', c.req.param('uuid')!);
      if (type === 'org_unit' || type === 'employee') return c.json(ownVersions(owner, type, uuid, c));
      if (!(detailTypes as readonly string[]).includes(type)) throw invalid.unknownRoleType(type);
      const detailType = type as DetailType;
      const time = readTimeParams(c, clock);
      // 2.4.0 passes `changed_since` to the reader (`service/detail_reading.py`, `get_from_type`).
      const changedSince = readChangedSince(c.req.query('changed_since'));
      const inherit =
        owner === 'ou' &&
        ((detailType === 'manager' && readFlag(c, 'inherit_manager')) ||
          (detailType === 'owner' && readFlag(c, 'inherit_owner')));
      const records = inherit
        ? inheritedUnitRecords(detailType, uuid, time, changedSince)
        : detailRecords(detailType, owner, uuid, time, changedSince);
      const views = new DetailViews(data, {
        at: time.at,
        onlyPrimaryUuid: readFlag(c, 'only_primary_uuid'),
        calculatePrimary: readFlag(c, 'calculate_primary'),
      });
      const rendered = records.map(({ uuid: recordUuid, version }) =>
        views.render(detailType, recordUuid, version),
      );
      if (detailType === 'association' && readFlag(c, 'first_party_perspective')) {
        return c.json(firstPartyPerspective(owner, uuid, time, views, rendered));
      }
      return c.json(rendered);
    };
    // One route per type, so the route table lists exactly the documented paths.
    for (const type of [...detailTypes, owner === 'ou' ? 'org_unit' : 'employee']) {
      app.get(`/${owner}/:uuid/details/${type}`, (c) => readDetails(c, type));
    }
  }

  return app;
}
