import { describe, expect, it } from 'vitest';
import { keys, list, literal, num, orNull, shapeProblems, str } from './response-shape.js';

describe('shapeProblems', () => {
  const person = keys({ uuid: str, name: str, cpr_no: str }, ['cpr_no']);

  it('accepts a value with exactly the keys, optional ones absent', () => {
    expect(shapeProblems(person, { uuid: 'u', name: 'n' })).toEqual([]);
  });

  it('names missing and unexpected keys with their path', () => {
    expect(shapeProblems(list(person), [{ uuid: 'u', extra: 1 }])).toEqual([
      '$[0]: missing key "name"',
      '$[0]: unexpected key "extra"',
    ]);
  });

  it('checks nesting and types, and null only where allowed', () => {
    const manager = keys({ person: orNull(person), count: num });
    expect(shapeProblems(manager, { person: null, count: 1 })).toEqual([]);
    expect(shapeProblems(manager, { person: { uuid: 1, name: 'n' }, count: null })).toEqual([
      '$.person.uuid: expected string, got number',
      '$.count: expected number, got null',
    ]);
  });

  it('refuses an empty list unless it may be empty, and compares literals', () => {
    expect(shapeProblems(list(str), [])).toEqual(['$: expected a non-empty list']);
    expect(shapeProblems(list(str, { nonEmpty: false }), [])).toEqual([]);
    expect(shapeProblems(literal([]), [1])).toEqual(['$: expected [], got [1]']);
    expect(shapeProblems(literal('Not authenticated'), 'Not authenticated')).toEqual([]);
  });
});
