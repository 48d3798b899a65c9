import { describe, expect, it } from 'vitest';
import { findDifferences } from './differences.js';

const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';
const manager = '5aec0ba3-24db-5cc6-9059-20b00f28d0a3';

describe('findDifferences', () => {
  it('finds nothing in equal forms, whatever the key order', () => {
    expect(findDifferences({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
  });

  it('names a changed value by its path, UUID keys bracketed, with both values', () => {
    const legacy = {
      org_units: { [unit]: { managers: { [manager]: { manager_type: { user_key: 'director' } } } } },
    };
    const graphql = {
      org_units: { [unit]: { managers: { [manager]: { manager_type: { user_key: 'head' } } } } },
    };
    expect(findDifferences(legacy, graphql)).toEqual([
      {
        path: `org_units[${unit}].managers[${manager}].manager_type.user_key`,
        legacy: 'director',
        graphql: 'head',
      },
    ]);
  });

  it('leaves out the side that has nothing at a path', () => {
    expect(findDifferences({ managers: { [manager]: { name: 'A' } } }, { managers: {} })).toEqual([
      { path: `managers[${manager}]`, legacy: { name: 'A' } },
    ]);
    expect(findDifferences({ list: [1] }, { list: [1, 2] })).toEqual([{ path: 'list[1]', graphql: 2 }]);
  });

  it('compares null with an object as two values', () => {
    expect(findDifferences({ employee: null }, { employee: { name: 'A' } })).toEqual([
      { path: 'employee', legacy: null, graphql: { name: 'A' } },
    ]);
  });
});
