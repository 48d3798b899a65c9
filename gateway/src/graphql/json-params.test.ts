import { describe, expect, it } from 'vitest';
import { plainJsonParams } from './json-params.js';

const text = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));

describe('plainJsonParams', () => {
  it('reads one well-formed request from a JSON body', () => {
    const request = {
      query: 'query Q($u: [UUID!]) { __typename }',
      variables: { u: ['a'] },
      operationName: 'Q',
      extensions: { trace: true },
    };
    expect(plainJsonParams('application/json', text(request))).toEqual(request);
    expect(plainJsonParams('application/json; charset=utf-8', text(request))).toEqual(request);
    expect(plainJsonParams('application/graphql+json', text(request))).toEqual(request);
    expect(
      plainJsonParams('application/json', text({ query: '{ a }', variables: null, operationName: null })),
    ).toEqual({ query: '{ a }', variables: null, operationName: null });
    expect(plainJsonParams('application/json', text({ query: '{ a }', other: null }))).toEqual({
      query: '{ a }',
      other: null,
    });
  });

  it('leaves every other body to Yoga, which answers it with its own errors', () => {
    const json = (body: unknown) => plainJsonParams('application/json', text(body));
    expect(plainJsonParams(undefined, text({ query: '{ a }' }))).toBeUndefined();
    expect(plainJsonParams('text/plain', text({ query: '{ a }' }))).toBeUndefined();
    expect(plainJsonParams('application/jsonx', text({ query: '{ a }' }))).toBeUndefined();
    expect(
      plainJsonParams('multipart/form-data, application/json', text({ query: '{ a }' })),
    ).toBeUndefined();
    expect(json('{"query": ')).toBeUndefined();
    expect(json('null')).toBeUndefined();
    expect(json('"{ a }"')).toBeUndefined();
    expect(json([{ query: '{ a }' }])).toBeUndefined();
    expect(json({})).toBeUndefined();
    expect(json({ query: 1 })).toBeUndefined();
    expect(json({ query: '{ a }', variables: [] })).toBeUndefined();
    expect(json({ query: '{ a }', variables: '{}' })).toBeUndefined();
    expect(json({ query: '{ a }', extensions: 1 })).toBeUndefined();
    expect(json({ query: '{ a }', operationName: 1 })).toBeUndefined();
    expect(json({ query: '{ a }', other: 1 })).toBeUndefined();
  });
});
