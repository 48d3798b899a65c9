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
import { newestReplacement } from './coverage/replacements.js';
import { os2moData, os2moReplacement, os2moRoad, servedV30Schema } from './os2mo-road.js';

const reads = contractOperations.filter((operation) => operation.method === 'GET');
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
