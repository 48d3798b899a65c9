import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organisationUuid, referenceUnitUuids } from '../legacy-service/src/fixture/organisation.js';
import { postGraphQL, startTestStack, type TestStack } from './stack.js';

/**
 * Ported from OS2mo's tests/graphapi/test_current.py (`setup_data`, `test_read_current`): a unit renamed in
 * 1970, 2000 and 2020, read at several moments (OS2mo freezes time; here the stack's clock moves) through
 * filters with several windows. Which response is listed and what its `current` shows are OS2mo's answers.
 */
let stack: TestStack;
let now = new Date();
let token: string;
let unit: string;

async function legacyJson<T>(path: string, body?: unknown): Promise<T> {
  const response = await stack.legacyFetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

beforeAll(async () => {
  stack = await startTestStack({ clock: () => now });
  token = await stack.token('nora');
  const reference = await legacyJson<{ org_unit_type: { uuid: string } }>(
    `/service/ou/${referenceUnitUuids[0]}/`,
  );
  unit = await legacyJson<string>('/service/ou/create', {
    name: 'Unix',
    parent: { uuid: organisationUuid },
    org_unit_type: { uuid: reference.org_unit_type.uuid },
    validity: { from: '1970-01-01' },
  });
  for (const [from, name] of [
    ['2000-01-01', 'Millennium'],
    ['2020-01-01', 'MMXX'],
  ] as const) {
    await legacyJson('/service/details/edit', {
      type: 'org_unit',
      data: { uuid: unit, name, validity: { from } },
    });
  }
});
afterAll(() => stack.close());

async function read(query: string, variables: Record<string, unknown>) {
  const { body } = await postGraphQL(
    stack,
    'v30',
    { query, variables },
    { authorization: `Bearer ${token}` },
  );
  expect(body.errors).toBeUndefined();
  return body.data;
}

describe("OS2mo's test_current.py, on the stand-in", () => {
  it('setup_data: the full history, with OS2mo’s dates and exclusive ends', async () => {
    now = new Date('2026-06-01T12:00:00Z');
    const data = await read(
      `query ReadHistory($uuid: UUID!) {
        org_units(filter: {uuids: [$uuid], from_date: null, to_date: null}) {
          objects { objects { name validity { from to } } }
        }
      }`,
      { uuid: unit },
    );
    expect(data).toEqual({
      org_units: {
        objects: [
          {
            objects: [
              {
                name: 'Unix',
                validity: { from: '1970-01-01T00:00:00+01:00', to: '2000-01-01T00:00:00+01:00' },
              },
              {
                name: 'Millennium',
                validity: { from: '2000-01-01T00:00:00+01:00', to: '2020-01-01T00:00:00+01:00' },
              },
              { name: 'MMXX', validity: { from: '2020-01-01T00:00:00+01:00', to: null } },
            ],
          },
        ],
      },
    });
  });

  const listed = (name: string | null) => [{ uuid: 'UNIT', current: name === null ? null : { name } }];
  // [query time, from_date, to_date, expected], as test_read_current's parameters.
  const cases: [
    string,
    string | null,
    string | null,
    { uuid: string; current: { name: string } | null }[],
  ][] = [
    ['1930-01-01', null, null, listed(null)],
    ['1972-01-01', null, null, listed('Unix')],
    ['1998-01-01', null, null, listed('Unix')],
    ['2002-01-01', null, null, listed('Millennium')],
    ['2011-01-01', null, null, listed('Millennium')],
    ['2023-01-01', null, null, listed('MMXX')],
    ['3000-01-01', null, null, listed('MMXX')],
    ['1930-01-01', '1929-01-01', '1931-01-01', []],
    ['1972-01-01', '1971-01-01', '1973-01-01', listed('Unix')],
    ['1998-01-01', '1997-01-01', '1999-01-01', listed('Unix')],
    ['2002-01-01', '2001-01-01', '2003-01-01', listed('Millennium')],
    ['2011-01-01', '2010-01-01', '2012-01-01', listed('Millennium')],
    ['2023-01-01', '2022-01-01', '2024-01-01', listed('MMXX')],
    ['3000-01-01', '2999-01-01', '3001-01-01', listed('MMXX')],
    ['1930-01-01', '2001-01-01', '2003-01-01', listed(null)],
    ['1972-01-01', '2001-01-01', '2003-01-01', listed(null)],
    ['1998-01-01', '2001-01-01', '2003-01-01', listed(null)],
    ['2002-01-01', '2001-01-01', '2003-01-01', listed('Millennium')],
    ['2011-01-01', '2001-01-01', '2003-01-01', listed('Millennium')],
    ['2023-01-01', '2001-01-01', '2003-01-01', listed(null)],
    ['3000-01-01', '2001-01-01', '2003-01-01', listed(null)],
    ['1930-01-01', '1930-01-01', '1931-01-01', []],
    ['1972-01-01', '1930-01-01', '1931-01-01', []],
    ['2023-01-01', '1930-01-01', '1931-01-01', []],
    ['3000-01-01', '1930-01-01', '1931-01-01', []],
  ];

  it.each(cases)('test_read_current at %s, window %s to %s', async (at, from, to, expected) => {
    now = new Date(`${at}T12:00:00Z`);
    const data = await read(
      `query ReadCurrent($uuid: UUID!, $from_date: DateTime, $to_date: DateTime) {
        org_units(filter: {uuids: [$uuid], from_date: $from_date, to_date: $to_date}) {
          objects { uuid current { name } }
        }
      }`,
      { uuid: unit, from_date: from, to_date: to },
    );
    expect(data.org_units.objects).toEqual(expected.map((response) => ({ ...response, uuid: unit })));
  });
});
