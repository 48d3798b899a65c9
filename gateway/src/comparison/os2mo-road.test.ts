import { readFileSync } from 'node:fs';
import {
  buildSchema,
  extendSchema,
  isInputObjectType,
  isObjectType,
  parse,
  validate,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildVersions } from '../graphql/versions.js';
import { contractOperations } from '../contract/contract-operations.generated.js';
import { isServiceOperation } from '../contract/contract-operations.js';
import { hierarchyReplacements, hierarchyV30Forms } from './coverage/hierarchy-checks.js';
import { notCovered } from './coverage/not-covered.js';
import { newestReplacement } from './coverage/replacements.js';
import { deprecatedIn, deprecatedWithoutReplacement } from './deprecation-free.js';
import { detailRoad } from './detail-comparison.js';
import {
  formsReason,
  linkShapeChanges,
  os2moData,
  os2moReplacement,
  os2moRoad,
  servedV30Schema,
} from './os2mo-road.js';

// The reads no GraphQL query answers are reported not covered, with their reason (`not-covered.ts`).
const reads = contractOperations.filter(
  (operation) =>
    operation.method === 'GET' &&
    isServiceOperation(operation) &&
    notCovered[operation.operationId] === undefined,
);
const served = buildVersions();
const schemaOf = (name: string) => served.find((version) => version.name === name)!.schema;

/** OS2mo's own printout of v29 = v30 (the fixture the conformance test holds the served schema to). */
const os2mo = buildSchema(
  readFileSync(new URL('../../../test/fixtures/os2mo-graphql/os2mo-v29.graphql', import.meta.url), 'utf8'),
);

/** Whether a schema has a coordinate (`Type.field`, `Input.field`, `Type.field(arg:)`). */
function has(schema: GraphQLSchema, coordinate: string): boolean {
  const [, typeName = '', fieldName = '', argument] = /^(\w+)\.(\w+)(?:\((\w+):\))?$/.exec(coordinate) ?? [];
  const type = schema.getType(typeName);
  if (!isObjectType(type) && !isInputObjectType(type)) return false;
  const field = type.getFields()[fieldName];
  if (field === undefined) return false;
  return argument === undefined || ('args' in field && field.args.some((arg) => arg.name === argument));
}

/** The variables the shown queries use, with the types their arguments take on each version. */
const variableTypes: Record<string, string> = {
  uuid: 'UUID!',
  uuids: '[UUID!]',
  facet: 'String!',
  at: 'Date',
  query: 'String',
  cpr_number: 'String!',
  validity: 'ValidityScope',
};

/** A shown query as a whole operation, its variables declared, so a served schema can validate it. */
function operationOf(query: string): string {
  const used = [...new Set([...query.matchAll(/\$([a-z_]+)/g)].map((match) => match[1]!))];
  const declared = used.map((name) => `$${name}: ${variableTypes[name] ?? 'Unknown'}`).join(', ');
  return `query Shown${declared ? `(${declared})` : ''} { ${query} }`;
}

describe('the OS2mo road: which version answers each read', () => {
  it('names v30 or v2 for every read of the contract, and on v2 a reason about OS2mo', () => {
    expect(reads.length).toBe(46);
    for (const operation of reads) {
      const newest = newestReplacement(operation);
      expect(newest, operation.operationId).toBeDefined();
      if (newest!.version === 'v2') expect(newest!.reason, operation.operationId).toMatch(/^OS2mo has /);
    }
  });

  it("derives every reason from OS2mo's printout: what it says OS2mo has is there, what it lacks is not", () => {
    let named = 0;
    for (const operation of reads) {
      const newest = newestReplacement(operation)!;
      if (newest.version !== 'v2') continue;
      for (const part of newest.reason.split(/; (?=OS2mo)/)) {
        const coordinates = [...part.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
        expect(coordinates.length, newest.reason).toBeGreaterThan(0);
        for (const coordinate of coordinates) {
          const inOs2mo = part.startsWith('OS2mo has it');
          expect(has(os2mo, coordinate), `${operation.operationId}: ${coordinate}`).toBe(inOs2mo);
          // Whatever it names is missing from what we serve: that is why v2 answers.
          expect(has(servedV30Schema(), coordinate), coordinate).toBe(false);
          named += 1;
        }
      }
    }
    expect(named).toBeGreaterThan(5);
  });

  it('names only v30 queries the served v30 schema accepts, and v2 queries the served v2 schema accepts', () => {
    let onV30 = 0;
    for (const operation of reads) {
      const newest = newestReplacement(operation)!;
      const schema = schemaOf(newest.version);
      const errors = validate(schema, parse(operationOf(newest.query)));
      expect(
        errors.map((error) => error.message),
        `${operation.operationId}: ${newest.query}`,
      ).toEqual([]);
      if (newest.version === 'v30') onV30 += 1;
    }
    expect(onV30).toBeGreaterThanOrEqual(15);
  });

  it("shows v30 queries OS2mo's own v30 accepts, asking nothing v30 deprecates but what it deprecates with no replacement", () => {
    let shown = 0;
    for (const operation of reads) {
      const newest = newestReplacement(operation)!;
      if (newest.version !== 'v30') continue;
      const query = operationOf(newest.query.replaceAll('…', '__typename'));
      const where = `${operation.operationId}: ${newest.query}`;
      expect(
        validate(os2mo, parse(query)).map((error) => error.message),
        where,
      ).toEqual([]);
      // What is left is OS2mo's own dead end (`Query.org`), which the 410 names (`replacements.test.ts`).
      const unreplaced = deprecatedWithoutReplacement(servedV30Schema(), newest.query);
      expect(deprecatedIn(servedV30Schema(), query), where).toEqual(
        unreplaced.map(({ coordinate, reason }) => `The field ${coordinate} is deprecated. ${reason}`),
      );
      expect(deprecatedIn(os2mo, query).length, where).toBe(unreplaced.length);
      shown += 1;
    }
    expect(shown).toBeGreaterThanOrEqual(30);
  });

  it('turns a v2 fallback into v30 as soon as the served schema has the coordinate, with no edit', () => {
    const query = 'itsystems(filter: { uuids: [$uuid] }) { objects { validity { from } } }';
    expect(os2moReplacement(query)).toEqual({
      version: 'v2',
      query,
      reason: 'OS2mo has it (`ITSystem.validity`); served from v2 until /graphql/v30 serves it.',
    });
    const later = extendSchema(servedV30Schema(), parse('extend type ITSystem { validity: OpenValidity! }'));
    expect(os2moReplacement(query, later)).toEqual({
      version: 'v30',
      query: 'itsystems(filter: {uuids: [$uuid]}) { objects { current { validity { from } } } }',
    });
    const request = {
      operationName: 'Systems',
      query: `query Systems($uuid: UUID!) { ${query} }`,
      variables: { uuid: 'x' },
    };
    expect(os2moRoad(request).version).toBe('v2');
    expect(os2moRoad(request, later).version).toBe('v30');
  });

  it("puts a v2 request in OS2mo's shape: responses' current, OS2mo's names kept under v2's, its filters and int", () => {
    const road = os2moRoad({
      operationName: 'Q',
      query:
        'query Q($facet: String!, $limit: Int) { classes(filter: { facets: [$facet] }, limit: $limit) { objects { uuid } } employees { objects { givenname engagements { employee { uuid } } } } }',
      variables: {},
    });
    expect(road.version).toBe('v30');
    expect(road.request.query.replace(/\s+/g, ' ')).toBe(
      'query Q($facet: String!, $limit: int) { classes(filter: {facet: {user_keys: [$facet]}}, limit: $limit) { objects { current { uuid } } } employees: persons { objects { current { givenname: given_name engagements { employee: person { uuid } } } } } }',
    );
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

describe("a read's own v30 forms, where its v2 query does not translate", () => {
  const read = (operationId: string) => reads.find((operation) => operation.operationId === operationId)!;

  it("proves versions through OS2mo's validities, and a person's owners through the owners collection", () => {
    expect(newestReplacement(read('listOrgUnitVersions'))).toMatchObject({
      version: 'v30',
      query: expect.stringContaining('validities(start: null, end: null)') as string,
    });
    expect(newestReplacement(read('listEmployeeOwners'))).toMatchObject({
      version: 'v30',
      query: expect.stringMatching(/^owners\(filter: \{employee: \{uuids: \[\$uuid\]\}\}\)/) as string,
    });
    const road = detailRoad('employees', 'owner', ['p1']);
    expect(road).toMatchObject({ version: 'v30', translated: false });
    // Each record goes to the person it names, in the one detail query's shape.
    const answer = {
      owners: {
        objects: [
          { uuid: 'o1', user_key: 'a', owned_by: { uuid: 'p1' } },
          { uuid: 'o2', user_key: 'b', owned_by: { uuid: 'p2' } },
        ],
      },
    };
    expect(road.version === 'v30' && road.asV2(answer)).toEqual({
      employees: { objects: [{ uuid: 'p1', owners: [{ uuid: 'o1', user_key: 'a' }] }] },
    });
  });

  it('gives one reason per detail type, naming what every form lacks where OS2mo has no place for it', () => {
    const kles = detailRoad('employees', 'kle', ['p1']);
    expect(kles.version === 'v2' && kles.reason).toBe(
      "OS2mo has no place for it (`Employee.kles`, `KLE.person`, `KLEFilter.employee` are not in OS2mo's schema).",
    );
    // Until v30 serves an association's dynamic class, only the association listing goes to v2, saying so.
    const associations = detailRoad('org_units', 'association', ['u1']);
    if (servedWith({ 'Association.dynamic_class': 'Class' }) !== servedV30Schema()) {
      expect(associations.version === 'v2' && associations.reason).toBe(
        'OS2mo has it (`Association.dynamic_class`); served from v2 until /graphql/v30 serves it.',
      );
    } else expect(associations).toMatchObject({ version: 'v30', translated: true });
    expect(detailRoad('org_units', 'address', ['u1'])).toMatchObject({ version: 'v30', translated: true });
  });

  it('prefers the reason of a form that serving OS2mo coordinates would make run', () => {
    const omissions = { 'Class.children': 'not served yet' };
    expect(formsReason([['Facet.top_level_classes'], ['Class.children']], omissions)).toBe(
      'OS2mo has it (`Class.children`); served from v2 until /graphql/v30 serves it.',
    );
    expect(formsReason([['Employee.roles'], ['Query.roles']], omissions)).toBe(
      "OS2mo has no place for it (`Employee.roles`, `Query.roles` are not in OS2mo's schema).",
    );
  });

  it('switches the class reads to v30 once the served v30 has Class.children and Class.parent', () => {
    const later = servedWith({ 'Class.children': '[Class!]!', 'Class.parent': 'Class' });
    for (const operationId of ['listFacetChildren', 'listClassChildren'] as const) {
      const v2 = hierarchyReplacements[operationId];
      const forms = hierarchyV30Forms[operationId]!;
      // Before: v2, saying what v30 would need (once both are served, there is no before).
      if (later !== servedV30Schema()) {
        expect(os2moReplacement(v2, servedV30Schema(), forms).version, operationId).toBe('v2');
      }
      expect(os2moReplacement(v2, later, forms), operationId).toMatchObject({
        version: 'v30',
        // Shown as v30's `children_response` where the schema deprecates the plain link.
        query: expect.stringMatching(/children(?:_response \{ objects \{ current)? \{ uuid/) as string,
      });
    }
  });

  it("derives which links change shape from the two served schemas, an association's dynamic_class too once served", () => {
    const v2 = schemaOf('v2');
    const served = linkShapeChanges(v2, servedV30Schema());
    expect([...served.toOne].sort()).toEqual(
      ['employee', 'kle_number', 'org_unit', 'owner', 'person', 'substitute'].sort(),
    );
    const links = linkShapeChanges(v2, servedWith({ 'Association.dynamic_class': 'Class' }));
    expect([...links.toList]).toEqual(['dynamic_classes']);
    // v30's one dynamic class (asked under v2's name) is read as v2's list of them.
    const associations = [
      { dynamic_classes: { user_key: 'union' }, person: [{ uuid: 'p1' }] },
      { dynamic_classes: null, person: [] },
    ];
    expect(os2moData({ associations }, links)).toEqual({
      associations: [
        { dynamic_classes: [{ user_key: 'union' }], person: { uuid: 'p1' } },
        { dynamic_classes: [], person: null },
      ],
    });
  });
});

describe("os2moData (v30's answer in the comparable form, normalised once)", () => {
  it("reads each response's current, OS2mo's link lists as one object, and validities as inclusive legacy days", () => {
    const data = {
      org_units: {
        objects: [
          {
            current: {
              uuid: 'u1',
              validity: { from: '2010-01-01T00:00:00+01:00', to: '2022-01-01T00:00:00+01:00' },
              managers: [{ employee: [{ uuid: 'p1' }], org_unit: [] }],
            },
          },
          // Not valid now: OS2mo answers `current: null`, the legacy listing has no record.
          { current: null },
          { current: { uuid: 'u2', validity: { from: '2024-07-01T00:00:00+02:00', to: null } } },
        ],
      },
    };
    expect(os2moData(data)).toEqual({
      org_units: {
        objects: [
          {
            uuid: 'u1',
            validity: { from: '2010-01-01', to: '2021-12-31' },
            managers: [{ employee: { uuid: 'p1' }, org_unit: null }],
          },
          { uuid: 'u2', validity: { from: '2024-07-01', to: null } },
        ],
      },
    });
  });
});
