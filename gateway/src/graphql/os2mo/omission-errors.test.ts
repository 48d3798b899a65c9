import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';
import { declaredOmissionsOf, olderOmissions, v30Omissions } from './ledger/index.js';
import { NOT_SERVED_CODE, notServedMessage, unknownCoordinateOf } from './omission-errors.js';

describe('unknownCoordinateOf', () => {
  it.each([
    ['Cannot query field "rolebindings" on type "Query".', 'Query.rolebindings'],
    ['Cannot query field "children" on type "Class". Did you mean "facet"?', 'Class.children'],
    [
      'Unknown argument "registration_time" on field "EmployeeResponse.objects".',
      'EmployeeResponse.objects(registration_time:)',
    ],
    ['Field "cpr_numbers" is not defined by type "EmployeeFilter".', 'EmployeeFilter.cpr_numbers'],
    // graphql-jit's variable check leaves the type's name unquoted.
    [
      'Variable "$f" got invalid value { cpr_numbers: [] }; Field "cpr_numbers" is not defined by type EmployeeFilter.',
      'EmployeeFilter.cpr_numbers',
    ],
    ['Unknown type "AccessLogFilter".', 'AccessLogFilter'],
    ['Value "SOME" does not exist in "FileStore" enum.', 'FileStore.SOME'],
  ])('%s names %s', (message, coordinate) => {
    expect(unknownCoordinateOf(message)).toBe(coordinate);
  });

  it('names nothing for other errors', () => {
    expect(unknownCoordinateOf('Syntax Error: Expected Name, found "}".')).toBeUndefined();
    expect(unknownCoordinateOf('Unknown argument "if" on directive "@skip".')).toBeUndefined();
  });
});

describe('declaredOmissionsOf', () => {
  it("answers v30's list for v29 and v30, and none for the gateway's own versions", () => {
    expect(declaredOmissionsOf('v30')).toEqual(v30Omissions);
    expect(declaredOmissionsOf('v29')).toEqual(v30Omissions);
    expect(declaredOmissionsOf('v1')).toBeUndefined();
    expect(declaredOmissionsOf('v2')).toBeUndefined();
  });

  it("adds each printed older version's own list, and between two printouts what both leave out", () => {
    expect(declaredOmissionsOf('v25')).toEqual({ ...v30Omissions, ...olderOmissions['v25'] });
    expect(declaredOmissionsOf('v21')?.['Query.roles']).toBe(olderOmissions['v21']?.['Query.roles']);
    expect(declaredOmissionsOf('v22')?.['Query.roles']).toBeUndefined();
    // v22 and v25 both have the audit log, so v23 and v24 have it; v29 has none, so v26 to v28 neither.
    expect(declaredOmissionsOf('v23')?.['Query.auditlog']).toBe(olderOmissions['v22']?.['Query.auditlog']);
    expect(declaredOmissionsOf('v24')?.['Query.auditlog']).toBeDefined();
    expect(declaredOmissionsOf('v27')?.['Query.auditlog']).toBeUndefined();
    expect(declaredOmissionsOf('v30')?.['Query.auditlog']).toBeUndefined();
  });
});

describe('a query for a declared omission, through Yoga', () => {
  let backend: StubBackend;
  let versions: StubbedVersions;

  beforeAll(async () => {
    backend = await startStubBackend();
    backend.answer(answerStubOrg);
    versions = stubbedVersions(backend);
  });
  afterAll(async () => {
    await versions.close();
    await backend.close();
  });

  const errorsOf = async (version: string, query: string, variables?: Record<string, unknown>) => {
    const { status, body } = await versions.ask(version, query, variables ? { variables } : {});
    return { status, errors: body.errors ?? [] };
  };
  const expected = (version: string, coordinate: string) => ({
    message: notServedMessage(coordinate, declaredOmissionsOf(version)![coordinate]!),
    extensions: expect.objectContaining({ code: NOT_SERVED_CODE, coordinate }),
  });

  it.each([
    ['a field', '{ healths { objects { identifier } } }', 'Query.healths'],
    [
      'an argument',
      '{ employees(limit: 1) { objects { objects(registration_time: null) { uuid } } } }',
      'EmployeeResponse.objects(registration_time:)',
    ],
    [
      'an input field',
      '{ employees(filter: { registration_time: "2020-01-01" }) { objects { uuid } } }',
      'EmployeeFilter.registration_time',
    ],
    ['a type', '{ __typename ... on AccessLog { id } }', 'AccessLog'],
  ])('names OS2mo’s coordinate and the reason for %s, with a code', async (_what, query, coordinate) => {
    const { status, errors } = await errorsOf('v30', query);
    expect(status).toBe(200);
    expect(errors).toEqual([expect.objectContaining(expected('v30', coordinate))]);
    expect(errors[0]!.message).toMatch(
      /^OS2mo's GraphQL has `[^`]+`, which this gateway does not serve: .+\.$/,
    );
    expect(errors[0]!.message.split(/\.\s/)).toHaveLength(1);
  });

  it("names an input field given in a variable's value", async () => {
    const { errors } = await errorsOf(
      'v30',
      'query ($filter: EmployeeFilter) { employees(filter: $filter) { objects { uuid } } }',
      { filter: { registration_time: '2020-01-01' } },
    );
    expect(errors).toEqual([expect.objectContaining(expected('v30', 'EmployeeFilter.registration_time'))]);
  });

  it("keeps graphql-js's message for a typo", async () => {
    const { errors } = await errorsOf('v30', '{ org_unitz { objects { uuid } } }');
    expect(errors.map((error) => [error.message, error.extensions?.code])).toEqual([
      ['Cannot query field "org_unitz" on type "Query".', 'GRAPHQL_VALIDATION_FAILED'],
    ]);
  });

  it('answers each version from its own list', async () => {
    const auditlog = '{ auditlog { objects { id } } }';
    expect((await errorsOf('v25', auditlog)).errors).toEqual([
      expect.objectContaining(expected('v25', 'Query.auditlog')),
    ]);
    expect((await errorsOf('v23', auditlog)).errors[0]?.extensions?.code).toBe(NOT_SERVED_CODE);
    for (const version of ['v27', 'v30']) {
      expect((await errorsOf(version, auditlog)).errors.map((error) => error.message)).toEqual([
        'Cannot query field "auditlog" on type "Query".',
      ]);
    }
    // v2 is the gateway's own version: OS2mo's role bindings are no gap of it.
    expect((await errorsOf('v2', '{ rolebindings { uuid } }')).errors[0]?.message).toBe(
      'Cannot query field "rolebindings" on type "Query".',
    );
  });
});
