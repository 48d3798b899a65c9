import {
  extendSchema,
  isObjectType,
  NoUndefinedVariablesRule,
  parse,
  specifiedRules,
  validate,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildVersions } from '../../graphql/versions.js';
import { os2moData, os2moRoad, servedV30Schema } from '../os2mo-road.js';
import type { GraphQLRequestBody } from '../subjects.js';
import { hierarchyChecks, type CheckReads } from './hierarchy-checks.js';

const org = '00000000-0000-4000-8000-000000000000';
const top = '10000000-0000-4000-8000-000000000000';
const mid = '20000000-0000-4000-8000-000000000000';
const sibling = '30000000-0000-4000-8000-000000000000';
const validity = { from: '2010-01-01', to: null };
const unit = (uuid: string, name: string, extra: object = {}) => ({
  uuid,
  name,
  user_key: uuid.slice(0, 2),
  validity,
  ...extra,
});

/** A legacy side that answers the paths the checks read, and a graph side that answers with `data`. */
function reads(service: Record<string, unknown>, data: (request: GraphQLRequestBody) => unknown): CheckReads {
  return {
    service: async (path) => {
      if (!(path in service)) throw new Error(`unexpected read ${path}`);
      return service[path];
    },
    graphql: async (request) => data(request),
  };
}

// A two-level organisation: `top` has `mid` and `sibling`; the sample is `mid`.
const treeService = {
  [`/service/o/${org}/ou/?limit=1`]: { items: [unit(mid, 'Mid')] },
  [`/service/o/${org}/children`]: [unit(top, 'Top', { child_count: 2 })],
  [`/service/ou/${top}/children`]: [
    unit(mid, 'Mid', { child_count: 0 }),
    unit(sibling, 'Sibling', { child_count: 0 }),
  ],
  [`/service/o/${org}/ou/tree?uuid=${mid}`]: [
    unit(top, 'Top', { children: [unit(mid, 'Mid', { child_count: 0 })] }),
  ],
};
const sample = { org, sampleSize: 1, scanLimit: 10 };
const treeData = (midName: string) => () => ({
  org_units: { objects: [unit(mid, midName, { child_count: 0, ancestors: [unit(top, 'Top')] })] },
});

describe('the tree checks', () => {
  it('prove a tree the graph rebuilds from ancestors', async () => {
    const check = await hierarchyChecks(reads(treeService, treeData('Mid')), sample).getOrgUnitTree!();
    const outcome = await check.run();
    expect(outcome).toMatchObject({
      differences: [],
      empty: false,
      paths: [`/service/o/${org}/ou/tree?uuid=${mid}`],
    });
  });

  it('find a unit the graph names differently', async () => {
    const check = await hierarchyChecks(reads(treeService, treeData('Renamed')), sample).getOrgUnitTree!();
    expect((await check.run()).differences).toEqual([
      { path: `[${mid}].name`, legacy: 'Mid', graphql: 'Renamed' },
    ]);
  });

  it('find a child the graph leaves out of the ancestor tree', async () => {
    const service = {
      ...treeService,
      [`/service/ou/ancestor-tree?uuid=${mid}`]: [
        unit(top, 'Top', {
          child_count: 2,
          children: [unit(mid, 'Mid', { child_count: 0 }), unit(sibling, 'Sibling', { child_count: 0 })],
        }),
      ],
    };
    const graph = (children: object[]) => () => ({
      org_units: {
        objects: [
          unit(mid, 'Mid', {
            child_count: 0,
            children: [],
            ancestors: [unit(top, 'Top', { child_count: 2, children })],
          }),
        ],
      },
    });
    const both = [unit(mid, 'Mid', { child_count: 0 }), unit(sibling, 'Sibling', { child_count: 0 })];
    const equal = await hierarchyChecks(reads(service, graph(both)), sample).getOrgUnitAncestorTree!();
    expect((await equal.run()).differences).toEqual([]);
    const short = await hierarchyChecks(reads(service, graph(both.slice(0, 1))), sample)
      .getOrgUnitAncestorTree!();
    expect((await short.run()).differences).toEqual([
      expect.objectContaining({ path: `[${sibling}]`, legacy: expect.objectContaining({ name: 'Sibling' }) }),
    ]);
  });
});

describe('the version checks', () => {
  const person = '40000000-0000-4000-8000-000000000000';
  const version = (from: string, to: string | null, surname: string) => ({
    uuid: person,
    name: `Ann ${surname}`,
    givenname: 'Ann',
    surname,
    nickname: '',
    user_key: 'ann',
    validity: { from, to },
  });
  const service = {
    [`/service/o/${org}/e/?limit=10`]: { items: [{ uuid: person }] },
    [`/service/e/${person}/details/employee?validity=past`]: [version('1900-01-01', '2019-05-31', 'Old')],
    [`/service/e/${person}/details/employee?validity=present`]: [version('2019-06-01', null, 'Now')],
    [`/service/e/${person}/details/employee?validity=future`]: [],
    // As of the past version's last day: that version is the present one, today's is in the future.
    [`/service/e/${person}/details/employee?at=2019-05-31&validity=past`]: [],
    [`/service/e/${person}/details/employee?at=2019-05-31&validity=present`]: [
      version('1900-01-01', '2019-05-31', 'Old'),
    ],
    [`/service/e/${person}/details/employee?at=2019-05-31&validity=future`]: [
      version('2019-06-01', null, 'Now'),
    ],
  };
  const graph = (pastTo: string) => (request: GraphQLRequestBody) => ({
    employees: {
      objects: [
        request.variables?.['at'] === '2019-05-31'
          ? {
              uuid: person,
              past: [],
              present: [version('1900-01-01', '2019-05-31', 'Old')],
              future: [version('2019-06-01', null, 'Now')],
            }
          : {
              uuid: person,
              past: [version('1900-01-01', pastTo, 'Old')],
              present: [version('2019-06-01', null, 'Now')],
              future: [],
            },
      ],
    },
  });

  it('prove the past, present and future listings on records', async () => {
    const check = await hierarchyChecks(reads(service, graph('2019-05-31')), sample).listEmployeeVersions!();
    const outcome = await check.run();
    expect(outcome.differences).toEqual([]);
    expect(outcome.paths).toEqual([
      `/service/e/${person}/details/employee?validity=past`,
      `/service/e/${person}/details/employee?validity=present`,
      `/service/e/${person}/details/employee?at=2019-05-31&validity=present`,
      `/service/e/${person}/details/employee?at=2019-05-31&validity=future`,
    ]);
  });

  it('find a version whose validity differs', async () => {
    const check = await hierarchyChecks(reads(service, graph('2019-06-30')), sample).listEmployeeVersions!();
    expect((await check.run()).differences).toEqual([
      {
        path: `[/service/e/${person}/details/employee?validity=past][0].validity.to`,
        legacy: '2019-05-31',
        graphql: '2019-06-30',
      },
    ]);
  });
});

/** The served v30 with those of `fields` (`Type.field` → its SDL type) it does not serve yet. */
function servedWith(fields: Record<string, string>): GraphQLSchema {
  const served = servedV30Schema();
  const missing = Object.entries(fields).filter(([coordinate]) => {
    const [type, name] = coordinate.split('.') as [string, string];
    const found = served.getType(type);
    return !(isObjectType(found) && name in found.getFields());
  });
  if (missing.length === 0) return served;
  const sdl = missing.map(([coordinate, type]) => {
    const [owner, name] = coordinate.split('.') as [string, string];
    return `extend type ${owner} { ${name}: ${type} }`;
  });
  return extendSchema(served, parse(sdl.join('\n')));
}

/**
 * A graph side on the OS2mo road over the served v30 (or `schema`): a request whose v2 form the schema
 * cannot answer is answered by the check's own v30 form, whose OS2mo-shaped `data` is given here.
 */
function os2moReads(
  service: Record<string, unknown>,
  data: (request: GraphQLRequestBody) => unknown,
  schema = servedV30Schema(),
): CheckReads & { asked: GraphQLRequestBody[] } {
  const asked: GraphQLRequestBody[] = [];
  return {
    ...reads(service, () => null),
    asked,
    graphql: async (request, forms) => {
      const road = os2moRoad(request, schema, forms);
      if (road.version !== 'v30' || road.translated) throw new Error('expected a v30 form');
      asked.push(road.request);
      return road.asV2(os2moData(data(road.request)));
    },
  };
}

describe("the version checks on OS2mo's v30 (validities over an open window, split as of the day)", () => {
  const person = '40000000-0000-4000-8000-000000000000';
  const version = (from: string, to: string | null, surname: string) => ({
    name: `Ann ${surname}`,
    givenname: 'Ann',
    surname,
    nickname: '',
    user_key: 'ann',
    validity: { from, to },
  });
  const old = version('1900-01-01', '2019-05-31', 'Old');
  const now = version('2019-06-01', null, 'Now');
  const service = {
    [`/service/o/${org}/e/?limit=10`]: { items: [{ uuid: person }] },
    [`/service/e/${person}/details/employee?validity=past`]: [old],
    [`/service/e/${person}/details/employee?validity=present`]: [now],
    [`/service/e/${person}/details/employee?validity=future`]: [],
    [`/service/e/${person}/details/employee?at=2019-05-31&validity=past`]: [],
    [`/service/e/${person}/details/employee?at=2019-05-31&validity=present`]: [old],
    [`/service/e/${person}/details/employee?at=2019-05-31&validity=future`]: [now],
  };
  // OS2mo's DateTime validities: the end is the exclusive midnight after the last day.
  const os2mo = (oldEnd: string) => () => ({
    employees: {
      objects: [
        {
          uuid: person,
          validities: [
            { ...version('', null, 'Old'), validity: { from: '1900-01-01T00:00:00+01:00', to: oldEnd } },
            { ...version('', null, 'Now'), validity: { from: '2019-06-01T00:00:00+02:00', to: null } },
          ],
        },
      ],
    },
  });

  it('prove the listings, today and as of a past day, with one query of every version', async () => {
    const graph = os2moReads(service, os2mo('2019-06-01T00:00:00+02:00'));
    const outcome = await (await hierarchyChecks(graph, sample).listEmployeeVersions!()).run();
    expect(outcome.differences).toEqual([]);
    expect(outcome.paths).toHaveLength(4);
    expect(graph.asked[0]!.query).toContain('validities(start: null, end: null)');
  });

  it('find a version whose end differs', async () => {
    const graph = os2moReads(service, os2mo('2019-07-01T00:00:00+02:00'));
    const outcome = await (await hierarchyChecks(graph, sample).listEmployeeVersions!()).run();
    expect(outcome.differences).toContainEqual({
      path: `[/service/e/${person}/details/employee?validity=past][0].validity.to`,
      legacy: '2019-05-31',
      graphql: '2019-06-30',
    });
  });
});

describe('the class checks on v30, once it serves Class.children and Class.parent', () => {
  const later = servedWith({ 'Class.children': '[Class!]!', 'Class.parent': 'Class' });
  const facet = 'job_function';
  const cls = (uuid: string, name: string, extra: object = {}) => ({ uuid, name, user_key: name, ...extra });
  const service = {
    [`/service/o/${org}/f/`]: [{ user_key: facet }],
    [`/service/f/${facet}/children`]: [cls(top, 'Top', { child_count: 1 })],
    [`/service/c/${top}/children`]: [cls(mid, 'Mid', { child_count: 0 })],
  };
  // Every class of the facet, or those asked for by UUID.
  const classes = (midChildren: object[]) => (request: GraphQLRequestBody) => ({
    classes: {
      objects: [
        {
          current: cls(top, 'Top', {
            facet: { user_key: facet },
            parent: null,
            children: [cls(mid, 'Mid', { children: midChildren })],
          }),
        },
        {
          current: cls(mid, 'Mid', {
            facet: { user_key: facet },
            parent: { uuid: top },
            children: midChildren,
          }),
        },
      ].filter(({ current }) => {
        const uuids = request.variables?.['uuids'];
        return !Array.isArray(uuids) || uuids.includes(current.uuid);
      }),
    },
  });

  it("prove a facet's top-level classes: those without a parent, their children counted", async () => {
    const graph = os2moReads(service, classes([]), later);
    const outcome = await (await hierarchyChecks(graph, sample).listFacetChildren!()).run();
    expect(outcome).toMatchObject({ differences: [], empty: false });
  });

  it("prove a class's children, and find a child count that differs", async () => {
    const equal = await (
      await hierarchyChecks(os2moReads(service, classes([]), later), sample).listClassChildren!()
    ).run();
    expect(equal).toMatchObject({ differences: [], empty: false });
    const counted = await (
      await hierarchyChecks(os2moReads(service, classes([{ uuid: sibling }]), later), sample)
        .listClassChildren!()
    ).run();
    expect(counted.differences).toEqual([{ path: `[${top}][${mid}].child_count`, legacy: 0, graphql: 1 }]);
  });
});

describe('the replacement queries the report shows', () => {
  // A reader copies them into GraphiQL: each must be valid v2 GraphQL once its `$` variables are declared.
  const v2 = buildVersions().find((version) => version.name === 'v2')!.schema;
  const rules = specifiedRules.filter((rule) => rule !== NoUndefinedVariablesRule);
  const checks = hierarchyChecks(
    reads({}, () => null),
    { org, sampleSize: 1, scanLimit: 1 },
  );

  it.each(Object.keys(checks))('%s', async (operationId) => {
    const { graphql } = await checks[operationId]!();
    const errors = validate(v2, parse(`{ ${graphql} }`), rules).map((error) => error.message);
    expect(errors, graphql).toEqual([]);
  });
});
