import { Hono, type Context } from 'hono';
import { isCprNumber } from '../cpr.js';
import { invalid, notFound } from '../errors.js';
import { isUuid, requireUuid } from '../input.js';
import type { IsoDate, OrgUnit, OrgUnitAttrs, Version } from '../model.js';
import type { OrgData } from '../org-data.js';
import { versionAt } from '../time.js';
import { fullName, validityOf } from '../views.js';
import { readTimeParams } from './read-params.js';

export interface LookupRouteOptions {
  data: OrgData;
  clock: () => Date;
}

/** Most hits an autocomplete answers with (OS2mo leaves the number to its database; a UI needs few). */
const autocompleteLimit = 10;

/** Every search word must occur in one of the values, in any order and case. */
function matchesWords(query: string, ...values: string[]): boolean {
  const haystack = values.join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** The names of a unit's ancestors, top first, as OS2mo's autocomplete `path` lists them. */
function ancestorNames(data: OrgData, version: Version<OrgUnitAttrs>, at: IsoDate): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (let parent = version.parent; parent !== null && !seen.has(parent);) {
    seen.add(parent);
    const unit = data.findOrgUnit(parent);
    const current = unit && versionAt(unit, at);
    if (!current) break;
    names.unshift(current.name);
    parent = current.parent;
  }
  return names;
}

/** Autocomplete, tree and CPR lookup: the endpoints a user interface (or an integration) searches with. */
export function lookupRoutes({ data, clock }: LookupRouteOptions): Hono {
  const app = new Hono({ strict: false });

  /** OS2mo requires `query` (a missing one is its request validation's E_INVALID_INPUT); empty finds nothing. */
  const readQuery = (c: Context) => {
    const query = c.req.query('query');
    if (query === undefined) throw invalid.input([{ key: 'query', message: 'is required' }]);
    return query;
  };

  const unitAutocomplete = (c: Context) => {
    const query = readQuery(c);
    const at = readTimeParams(c, clock).at;
    if (query.trim() === '') return c.json({ items: [] });
    const items = data
      .orgUnits()
      .flatMap((unit) => {
        const version = versionAt(unit, at);
        if (!version || !matchesWords(query, version.name, version.user_key, unit.uuid)) return [];
        return [{ uuid: unit.uuid, name: version.name, path: ancestorNames(data, version, at), attrs: [] }];
      })
      .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.uuid.localeCompare(b.uuid))
      .slice(0, autocompleteLimit);
    return c.json({ items });
  };

  const employeeAutocomplete = (c: Context) => {
    const query = readQuery(c);
    const at = readTimeParams(c, clock).at;
    if (query.trim() === '') return c.json({ items: [] });
    const items = data
      .employees()
      .flatMap((employee) => {
        const version = versionAt(employee, at);
        if (!version) return [];
        const name = fullName(version);
        // The CPR number too, as LoRa's person autocomplete that 2.4.0 hands the search to (the contract's
        // description; OS2mo still matches it at HEAD: `mora/service/autocomplete/employees.py`,
        // `_get_cte_cpr_hits`).
        return matchesWords(query, name, version.user_key, employee.uuid, version.cpr_no ?? '')
          ? [{ uuid: employee.uuid, name, attrs: [] }]
          : [];
      })
      .sort((a, b) => a.name.localeCompare(b.name, 'en') || a.uuid.localeCompare(b.uuid))
      .slice(0, autocompleteLimit);
    return c.json({ items });
  };

  app.get('/ou/autocomplete', unitAutocomplete);
  app.get('/e/autocomplete', employeeAutocomplete);

  /**
   * `/ou/ancestor-tree?uuid=…`: every ancestor of each unit asked for, and every sibling of each ancestor
   * (with its child count), as a tree from the top.
   */
  app.get('/ou/ancestor-tree', (c) => {
    const asked = c.req.queries('uuid') ?? [];
    if (asked.length === 0) throw invalid.input([{ key: 'uuid', message: 'name at least one unit' }]);
    for (const uuid of asked) if (!isUuid(uuid)) throw invalid.pathUuid('uuid', uuid);
    const at = readTimeParams(c, clock).at;
    interface Node {
      uuid: string;
      name: string;
      user_key: string;
      validity: { from: string; to: string | null };
      child_count: number;
      children?: Node[];
    }
    const nodeOf = (unit: OrgUnit, version: Version<OrgUnitAttrs>): Node => ({
      uuid: unit.uuid,
      name: version.name,
      user_key: version.user_key,
      validity: validityOf(version),
      child_count: data.childrenOf(unit.uuid, at).length,
    });
    const byName = (a: Node, b: Node) => a.name.localeCompare(b.name, 'en') || a.uuid.localeCompare(b.uuid);
    // Each unit on a path to an asked-for unit shows all its children (the siblings of the next step).
    const onPath = new Set<string>();
    for (const uuid of asked.map((value) => value.toLowerCase())) {
      const unit = data.orgUnit(uuid);
      let version = versionAt(unit, at);
      if (!version) throw notFound.orgUnit(uuid);
      onPath.add(unit.uuid);
      while (version && version.parent !== null) {
        onPath.add(version.parent);
        const parent = data.findOrgUnit(version.parent);
        version = parent && versionAt(parent, at);
      }
    }
    const expand = (node: Node): Node => {
      if (!onPath.has(node.uuid) || node.child_count === 0) return node;
      const children = data.childrenOf(node.uuid, at).flatMap((child) => {
        const version = versionAt(child, at);
        return version ? [expand(nodeOf(child, version))] : [];
      });
      return { ...node, children: children.sort(byName) };
    };
    const roots = data.orgUnits().flatMap((unit) => {
      const version = versionAt(unit, at);
      return version && version.parent === null && onPath.has(unit.uuid)
        ? [expand(nodeOf(unit, version))]
        : [];
    });
    return c.json(roots.sort(byName));
  });

  /**
   * `/o/{org}/ou/tree?uuid=…&uuid=…` (or `?query=…`): the chains from the top down to each unit asked for,
   * as nested `children`; the units asked for carry their `child_count`.
   */
  app.get('/o/:org/ou/tree', (c) => {
    data.organisation(requireUuid('org', c.req.param('org')));
    const at = readTimeParams(c, clock).at;
    const asked = c.req.queries('uuid') ?? [];
    for (const uuid of asked) if (!isUuid(uuid)) throw invalid.pathUuid('uuid', uuid);
    const query = c.req.query('query') ?? '';
    const targets =
      asked.length > 0
        ? asked.map((uuid) => uuid.toLowerCase())
        : query.trim() === ''
          ? []
          : data
              .orgUnits()
              .filter((unit) => {
                const version = versionAt(unit, at);
                return version && matchesWords(query, version.name, version.user_key);
              })
              .map((unit) => unit.uuid);
    interface Node {
      uuid: string;
      name: string;
      user_key: string;
      validity: { from: string; to: string | null };
      child_count?: number;
      children?: Node[];
    }
    const nodes = new Map<string, Node>();
    const roots: Node[] = [];
    const nodeOf = (unit: OrgUnit, version: Version<OrgUnitAttrs>): [Node, boolean] => {
      const found = nodes.get(unit.uuid);
      if (found) return [found, false];
      const node: Node = {
        uuid: unit.uuid,
        name: version.name,
        user_key: version.user_key,
        validity: validityOf(version),
      };
      nodes.set(unit.uuid, node);
      return [node, true];
    };
    for (const target of targets) {
      const unit = data.orgUnit(target);
      const version = versionAt(unit, at);
      if (!version) continue;
      let [node, created] = nodeOf(unit, version);
      node.child_count = data.childrenOf(unit.uuid, at).length;
      let parentUuid = version.parent;
      while (created) {
        const parent = parentUuid === null ? undefined : data.findOrgUnit(parentUuid);
        const parentVersion = parent && versionAt(parent, at);
        if (!parent || !parentVersion) {
          roots.push(node);
          break;
        }
        const [parentNode, parentCreated] = nodeOf(parent, parentVersion);
        (parentNode.children ??= []).push(node);
        node = parentNode;
        created = parentCreated;
        parentUuid = parentVersion.parent;
      }
    }
    const sortTree = (list: Node[]) => {
      list.sort((a, b) => a.name.localeCompare(b.name, 'en'));
      for (const node of list) if (node.children) sortTree(node.children);
      return list;
    };
    return c.json(sortTree(roots));
  });

  /**
   * `/e/cpr_lookup/?q=…`: OS2mo asks the national CPR register for the name. Offline, this service checks the
   * number's format and answers for people it already holds; any other valid number is "not found".
   */
  app.get('/e/cpr_lookup', (c) => {
    const cpr = c.req.query('q');
    if (cpr === undefined) throw invalid.missing('q');
    if (!isCprNumber(cpr)) throw invalid.cprNotValid(cpr);
    const at = readTimeParams(c, clock).at;
    for (const employee of data.employeesByCpr(cpr)) {
      const version = versionAt(employee, at) ?? employee.versions[employee.versions.length - 1];
      if (version && version.cpr_no === cpr) return c.json({ name: fullName(version), cpr_no: cpr });
    }
    throw invalid.noPersonForCpr();
  });

  return app;
}
