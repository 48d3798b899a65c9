import { getIntrospectionQuery } from 'graphql';
import { describe, expect, it } from 'vitest';
import { introspectionOnly } from './introspection-only.js';

const body = (params: unknown) => Buffer.from(typeof params === 'string' ? params : JSON.stringify(params));

describe('introspectionOnly', () => {
  it('accepts the introspection queries tools send', () => {
    expect(introspectionOnly(body({ query: getIntrospectionQuery() }))).toBe(true);
    expect(
      introspectionOnly(
        body({ query: getIntrospectionQuery({ descriptions: true }), operationName: 'IntrospectionQuery' }),
      ),
    ).toBe(true);
    expect(introspectionOnly(body({ query: '{ __type(name: "Query") { name } __typename }' }))).toBe(true);
  });

  it('judges the operation the request names', () => {
    const query = 'query Schema { __schema { queryType { name } } } query Units { org_units { uuid } }';
    expect(introspectionOnly(body({ query, operationName: 'Schema' }))).toBe(true);
    expect(introspectionOnly(body({ query, operationName: 'Units' }))).toBe(false);
    // Two operations and no name: nothing to judge.
    expect(introspectionOnly(body({ query }))).toBe(false);
  });

  it('refuses any other field, also beside introspection or inside a fragment', () => {
    for (const query of [
      '{ org_units { uuid } }',
      '{ __schema { queryType { name } } org_units { uuid } }',
      '{ ... on Query { org_units { uuid } } }',
      '{ ...f } fragment f on Query { org_units { uuid } }',
      '{ ...f } fragment f on Query { ...f }',
      'mutation { __typename }',
      'subscription { __typename }',
    ]) {
      expect(introspectionOnly(body({ query })), query).toBe(false);
    }
  });

  it('refuses what is not a GraphQL request', () => {
    for (const params of [
      'not json',
      '[]',
      'null',
      { query: 5 },
      { query: '{ __schema' },
      { query: '{ __typename }', operationName: 5 },
    ]) {
      expect(introspectionOnly(body(params)), JSON.stringify(params)).toBe(false);
    }
    expect(introspectionOnly(undefined)).toBe(false);
  });
});
