import { NoUndefinedVariablesRule, parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildVersions } from '../../graphql/versions.js';
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
