import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildVersions } from '../../graphql/versions.js';
import { detailTypes } from '../../legacy/legacy-paths.js';
import { detailQuery } from '../detail-comparison.js';
import { findDifferences } from '../differences.js';
import { os2moRoad } from '../os2mo-road.js';
import { shadowTarget } from './shadow-targets.js';
import { comparisonQuery, comparisonVersions } from '../subjects.js';

const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';
const person = 'f635932b-df70-5d86-8034-b59d1c9ba08b';
const none = new URLSearchParams();
const versions = new Map(buildVersions().map((version) => [version.name, version.schema]));

describe('shadowTarget', () => {
  it('covers unit, unit managers, employee and employee engagements reads', () => {
    expect(shadowTarget(`/service/ou/${unit}/`, none)?.kind).toBe('unit');
    expect(shadowTarget(`/service/ou/${unit}/details/manager`, none)?.kind).toBe('unit_managers');
    expect(shadowTarget(`/service/e/${person}/`, none)?.kind).toBe('employee');
    expect(shadowTarget(`/service/e/${person}/details/engagement`, none)?.kind).toBe('employee_engagements');
  });

  it('leaves out other reads and parameters it cannot repeat in GraphQL', () => {
    expect(shadowTarget(`/service/ou/${unit}/children`, none)).toBeNull();
    expect(shadowTarget(`/service/ou/${unit}/details/owner`, none)?.kind).toBe('unit_owners');
    expect(shadowTarget(`/service/e/${person}/details/manager`, none)?.kind).toBe('employee_manager_roles');
    expect(shadowTarget(`/service/ou/${unit}/details/org_unit`, none)).toBeNull();
    expect(shadowTarget('/service/o/', none)).toBeNull();
    expect(
      shadowTarget(`/service/ou/${unit}/details/manager`, new URLSearchParams('validity=past')),
    ).toBeNull();
    expect(
      shadowTarget(`/service/ou/${unit}/details/manager`, new URLSearchParams('inherit_manager=1')),
    ).toBeNull();
    expect(shadowTarget(`/service/ou/${unit}/`, new URLSearchParams('at=yesterday'))).toBeNull();
    expect(
      shadowTarget(`/service/ou/${unit}/`, new URLSearchParams('at=2024-01-01&validity=present'))?.at,
    ).toBe('2024-01-01');
  });

  it.each([
    `/service/ou/${unit}/`,
    `/service/ou/${unit}/details/manager`,
    `/service/e/${person}/`,
    `/service/e/${person}/details/engagement`,
  ])('asks the newest version a valid query for %s', (path) => {
    const target = shadowTarget(path, none)!;
    expect(validate(versions.get('v2')!, parse(target.request.query))).toEqual([]);
  });

  it('brings a manager listing and its GraphQL answer into the same form', () => {
    const type = { uuid: 'x', name: 'Director', user_key: 'director', example: null, scope: null };
    const legacy = [
      {
        uuid: 'm1',
        user_key: 'M-1',
        employee_uuid: person,
        person: { uuid: person, name: 'Omar Hansen', givenname: 'Omar', surname: 'Hansen' },
        org_unit: {
          uuid: unit,
          name: "Mayor's Office",
          user_key: 'MAY',
          validity: { from: '2010-01-01', to: null },
        },
        manager_type: type,
        manager_level: { ...type, user_key: 'level_2' },
        responsibility: [
          { ...type, user_key: 'personnel' },
          { ...type, user_key: 'budget' },
        ],
        validity: { from: '2023-01-01', to: null },
      },
    ];
    const graphql = {
      org_units: {
        objects: [
          {
            managers: [
              {
                uuid: 'm1',
                user_key: 'M-1',
                validity: { from: '2023-01-01', to: null },
                manager_type: { user_key: 'director' },
                manager_level: { user_key: 'level_2' },
                responsibility: [{ user_key: 'budget' }, { user_key: 'personnel' }],
                employee: { uuid: person, name: 'Omar Hansen' },
                org_unit: { uuid: unit, name: "Mayor's Office" },
              },
            ],
          },
        ],
      },
    };
    const target = shadowTarget(`/service/ou/${unit}/details/manager`, none)!;
    const fromLegacy = target.fromLegacy(legacy);
    expect(fromLegacy).toMatchObject({ managers: { m1: { manager_type: { user_key: 'director' } } } });
    expect(findDifferences(fromLegacy, target.fromGraphQL(graphql))).toEqual([]);
  });
});

describe('comparisonQuery', () => {
  it.each(comparisonVersions)('is valid on %s for units and employees', (version) => {
    for (const kind of ['org_units', 'employees'] as const) {
      const request = comparisonQuery({ kind, uuids: [unit] }, version);
      expect(validate(versions.get(version)!, parse(request.query)), `${kind} on ${version}`).toEqual([]);
    }
  });

  it("selects the specification's reference fields for units, plus the UUIDs that line both sides up", () => {
    const { query } = comparisonQuery({ kind: 'org_units', uuids: [unit] }, 'v2');
    const compact = query.replace(/\s+/g, ' ');
    expect(compact).toContain(
      'managers { uuid manager_type { user_key } employee { uuid name engagements { uuid job_function { user_key } } } }',
    );
  });
});

describe('the detail listings’ queries', () => {
  it.each(['v1', 'v2'] as const)('are valid on %s for every detail type of units and people', (version) => {
    for (const owner of ['org_units', 'employees'] as const) {
      const request = detailQuery(owner, detailTypes, [unit], version);
      expect(validate(versions.get(version)!, parse(request.query)), `${owner} on ${version}`).toEqual([]);
    }
  });

  it('are, on v30, valid for every type the OS2mo road sends there, and on v2 for the rest', () => {
    let onV30 = 0;
    for (const owner of ['org_units', 'employees'] as const) {
      for (const type of detailTypes) {
        const road = os2moRoad(detailQuery(owner, [type], [unit], 'v2'), versions.get('v30')!);
        expect(validate(versions.get(road.version)!, parse(road.request.query)), `${owner} ${type}`).toEqual(
          [],
        );
        if (road.version === 'v30') onV30 += 1;
      }
    }
    expect(onV30).toBeGreaterThan(0);
  });

  it('as the shadow asks them, are valid on v30 or, where the road says so, on v2', () => {
    for (const type of detailTypes) {
      for (const path of [`/service/ou/${unit}/details/${type}`, `/service/e/${person}/details/${type}`]) {
        const target = shadowTarget(path, none);
        expect(target, path).not.toBeNull();
        const road = os2moRoad(target!.request, versions.get('v30')!, target!.forms);
        expect(validate(versions.get(road.version)!, parse(road.request.query)), path).toEqual([]);
      }
    }
  });

  it("asks a person's owners on v30 from OS2mo's owners collection (OS2mo's Employee has no owners), today only", () => {
    const today = shadowTarget(`/service/e/${person}/details/owner`, none)!;
    expect(os2moRoad(today.request, versions.get('v30')!, today.forms)).toMatchObject({
      version: 'v30',
      translated: false,
    });
    const dated = shadowTarget(`/service/e/${person}/details/owner`, new URLSearchParams('at=2020-01-01'))!;
    expect(os2moRoad(dated.request, versions.get('v30')!, dated.forms).version).toBe('v2');
  });
});
