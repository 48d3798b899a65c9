import { describe, expect, it } from 'vitest';
import { brokenVariableLimit } from './variable-limits.js';

const limits = { maxBytes: 1_000, maxDepth: 4, maxListLength: 10 };

describe("which limit a request's variables break", () => {
  it('keeps variables within every limit', () => {
    expect(
      brokenVariableLimit({ f: { parent: { uuids: ['a', 'b'] } }, n: 3, on: true }, limits),
    ).toBeUndefined();
    expect(brokenVariableLimit({}, limits)).toBeUndefined();
  });

  it("counts the objects and lists inside the variables object: a filter's parent's parent's UUIDs are 4", () => {
    expect(brokenVariableLimit({ f: { parent: { parent: { uuids: ['a'] } } } }, limits)).toBeUndefined();
    expect(brokenVariableLimit({ f: { parent: { parent: { parent: { uuids: ['a'] } } } } }, limits)).toBe(
      'depth',
    );
  });

  it('refuses nesting far past the limit without recursing (60,000 levels)', () => {
    let filter: unknown = { uuids: [] };
    for (let level = 0; level < 60_000; level += 1) filter = { parent: filter };
    expect(brokenVariableLimit({ f: filter }, limits)).toBe('depth');
  });

  it('refuses a list longer than the limit, at any depth', () => {
    expect(brokenVariableLimit({ u: Array(10).fill('a') }, limits)).toBeUndefined();
    expect(brokenVariableLimit({ u: Array(11).fill('a') }, limits)).toBe('list');
    expect(brokenVariableLimit({ f: { uuids: Array(11).fill('a') } }, limits)).toBe('list');
  });

  it('measures size about as the JSON text: strings with their quotes, keys, numbers', () => {
    const text = 'x'.repeat(900);
    expect(brokenVariableLimit({ s: text }, limits)).toBeUndefined();
    expect(brokenVariableLimit({ s: text, t: 'y'.repeat(100) }, limits)).toBe('bytes');
    expect(brokenVariableLimit({ u: Array(10).fill('z'.repeat(99)) }, limits)).toBe('bytes');
  });

  it('refuses a lone surrogate in a value or a key, and keeps a pair (an emoji)', () => {
    expect(brokenVariableLimit({ k: ['\ud800'] }, limits)).toBe('unicode');
    expect(brokenVariableLimit({ k: 'a\udfffb' }, limits)).toBe('unicode');
    expect(brokenVariableLimit({ ['\ud800']: 1 }, limits)).toBe('unicode');
    expect(brokenVariableLimit({ k: ['\ud83d\ude00'] }, limits)).toBeUndefined();
  });
});
