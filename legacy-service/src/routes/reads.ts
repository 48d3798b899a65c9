import { Hono, type Context } from 'hono';
import { notFound } from '../errors.js';
import { readIntParam, requireUuid } from '../input.js';
import {
  detailTypes,
  type DetailType,
  type EngagementAttrs,
  type ItUserAttrs,
  type ManagerAttrs,
  type OwnerAttrs,
  type Temporal,
  type Version,
} from '../model.js';
import type { OrgData } from '../org-data.js';
import { matchesValidity, versionAt } from '../time.js';
import {
  classView,
  employeeListItem,
  employeeView,
  engagementView,
  itSystemView,
  itUserView,
  managerView,
  organisationRef,
  orgUnitListItem,
  orgUnitView,
  ownerView,
} from '../views.js';
import { readFlag, readTimeParams, type TimeParams } from './read-params.js';

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

/** Every read endpoint of `/service`. */
export function readRoutes({ data, clock }: ReadRouteOptions): Hono {
  const app = new Hono({ strict: false });

  const matching = <A>(entities: Temporal<A>[], time: TimeParams) =>
    entities.flatMap((entity) =>
      entity.versions
        .filter((version) => matchesValidity(version, time.validity, time.at))
        .map((version) => ({ uuid: entity.uuid, version })),
    );

  const detailRecords = (type: DetailType, owner: Owner, uuid: string, time: TimeParams) => {
    const field = owner === 'ou' ? 'org_unit' : 'person';
    const entities =
      owner === 'ou'
        ? data.detailsOfUnit<{ [k: string]: unknown }>(type, uuid)
        : data.detailsOfPerson(type, uuid);
    return matching(entities, time)
      .filter(({ version }) => (version as unknown as Record<string, unknown>)[field] === uuid)
      .sort((a, b) => a.version.from.localeCompare(b.version.from) || a.uuid.localeCompare(b.uuid));
  };

  const renderDetail = (type: DetailType, uuid: string, version: Version<unknown>, time: TimeParams) => {
    switch (type) {
      case 'engagement':
        return engagementView(data, uuid, version as Version<EngagementAttrs>, time.at);
      case 'manager':
        return managerView(data, uuid, version as Version<ManagerAttrs>, time.at);
      case 'owner':
        return ownerView(data, uuid, version as Version<OwnerAttrs>, time.at);
      case 'it':
        return itUserView(data, uuid, version as Version<ItUserAttrs>, time.at);
    }
  };

  /** With `inherit_manager=1`/`inherit_owner=1`, a unit without its own records shows its nearest ancestor's. */
  const inheritedUnitRecords = (type: DetailType, unitUuid: string, time: TimeParams) => {
    const seen = new Set<string>();
    let current: string | null = unitUuid;
    while (current !== null && !seen.has(current)) {
      seen.add(current);
      const records = detailRecords(type, 'ou', current, time);
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
    });
  });

  app.get('/o/:org/ou', (c) => {
    data.organisation(requireUuid('org', c.req.param('org')));
    const time = readTimeParams(c, clock);
    const { start, limit, query } = readListingParams(c);
    const items = data
      .orgUnits()
      .flatMap((unit) => {
        const version = versionAt(unit, time.at);
        if (!version || (query && !matchesQuery(query, version.name, version.user_key, unit.uuid))) return [];
        return [{ unit, version, name: version.name, uuid: unit.uuid }];
      })
      .sort(byNameThenUuid);
    // Only the page's units are shown: counting a unit's children is the costly part.
    const listed = page(items, start, limit);
    return c.json({
      ...listed,
      items: listed.items.map(({ unit, version }) => orgUnitListItem(data, unit, version, time.at)),
    });
  });

  app.get('/o/:org/children', (c) => {
    data.organisation(requireUuid('org', c.req.param('org')));
    const time = readTimeParams(c, clock);
    const roots = data.orgUnits().flatMap((unit) => {
      const version = versionAt(unit, time.at);
      return version && version.parent === null ? [orgUnitListItem(data, unit, version, time.at)] : [];
    });
    return c.json(roots.sort(byNameThenUuid));
  });

  app.get('/o/:org/e', (c) => {
    data.organisation(requireUuid('org', c.req.param('org')));
    const time = readTimeParams(c, clock);
    const { start, limit, query } = readListingParams(c);
    const items = data
      .employees()
      .flatMap((employee) => {
        const version = versionAt(employee, time.at);
        if (!version) return [];
        const item = employeeListItem(employee.uuid, version);
        return query && !matchesQuery(query, item.name, item.user_key, item.uuid) ? [] : [item];
      })
      .sort(byNameThenUuid);
    return c.json(page(items, start, limit));
  });

  app.get('/o/:org/it', (c) => {
    data.organisation(requireUuid('org', c.req.param('org')));
    return c.json(data.itSystems().map(itSystemView).sort(byNameThenUuid));
  });

  app.get('/o/:org/f', (c) => {
    const org = requireUuid('org', c.req.param('org'));
    data.organisation(org);
    return c.json(
      data
        .facets()
        .map((facet) => ({
          uuid: facet.uuid,
          user_key: facet.user_key,
          path: `/service/o/${org}/f/${facet.user_key}/`,
        }))
        .sort((a, b) => a.user_key.localeCompare(b.user_key)),
    );
  });

  app.get('/o/:org/f/:facet', (c) => {
    const org = requireUuid('org', c.req.param('org'));
    data.organisation(org);
    const facet = data.facet(c.req.param('facet'));
    const start = readIntParam('start', c.req.query('start'), 0);
    const limit = readIntParam('limit', c.req.query('limit'), 0);
    const classes = data.classesOf(facet.uuid).map(classView).sort(byNameThenUuid);
    return c.json({
      uuid: facet.uuid,
      user_key: facet.user_key,
      description: facet.description,
      path: `/service/o/${org}/f/${facet.user_key}/`,
      data: page(classes, start, limit),
    });
  });

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
    data.orgUnit(uuid);
    const children = data.childrenOf(uuid, time.at).flatMap((child) => {
      const version = versionAt(child, time.at);
      return version ? [orgUnitListItem(data, child, version, time.at)] : [];
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
    const facet = data.facet(record.facet);
    return c.json({ ...classView(record), facet: { uuid: facet.uuid, user_key: facet.user_key } });
  });

  for (const owner of ['ou', 'e'] as const) {
    const exists = (uuid: string) => (owner === 'ou' ? data.orgUnit(uuid) : data.employee(uuid));

    app.get(`/${owner}/:uuid/details`, (c) => {
      const uuid = requireUuid('uuid', c.req.param('uuid'));
      exists(uuid);
      const present = Object.fromEntries(
        detailTypes.map((type) => [
          type,
          (owner === 'ou' ? data.detailsOfUnit(type, uuid) : data.detailsOfPerson(type, uuid)).length > 0,
        ]),
      );
      return c.json(owner === 'ou' ? { org_unit: true, ...present } : { employee: true, ...present });
    });

    for (const type of detailTypes) {
      app.get(`/${owner}/:uuid/details/${type}`, (c) => {
        const uuid = requireUuid('uuid', c.req.param('uuid'));
        const time = readTimeParams(c, clock);
        exists(uuid);
        const inherit =
          owner === 'ou' &&
          ((type === 'manager' && readFlag(c, 'inherit_manager')) ||
            (type === 'owner' && readFlag(c, 'inherit_owner')));
        const records = inherit
          ? inheritedUnitRecords(type, uuid, time)
          : detailRecords(type, owner, uuid, time);
        return c.json(
          records.map(({ uuid: recordUuid, version }) => renderDetail(type, recordUuid, version, time)),
        );
      });
    }
  }

  return app;
}
