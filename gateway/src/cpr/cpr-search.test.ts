import { buildSchema, getOperationAST, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { weightedCost } from '../graphql/hardening/weighted-cost.js';
import { cprNumbersIn, isCprSearch } from './cpr-search.js';
import { cprNumberWeight, cprNumbersInOperation } from '../graphql/cpr-searches.js';

/** What counts as searching by CPR number (issue 35, item 3), and what it weighs. */
describe('CPR searches', () => {
  it('takes a ten-digit text (as OS2mo 2.4.0’s `is_cpr_number`) and its dashed form as a number, not a name', () => {
    for (const text of ['0101701234', ' 0101701234 ', '010170-1234']) expect(isCprSearch(text)).toBe(true);
    for (const text of ['Anne', '010170123', '01017012345', 'x0101701234', null]) {
      expect(isCprSearch(text)).toBe(false);
    }
  });

  it('counts `cpr_numbers` and number texts at any depth of a filter', () => {
    expect(cprNumbersIn({ cpr_numbers: ['0101701234', '0202702345'] })).toBe(2);
    expect(cprNumbersIn({ cpr_numbers: '0101701234' })).toBe(1);
    expect(cprNumbersIn({ employee: { query: '0101701234' }, owner: { cpr_numbers: ['1', '2', '3'] } })).toBe(
      4,
    );
    expect(cprNumbersIn({ query: 'Anne', cpr_numbers: null })).toBe(0);
  });

  const schema = buildSchema(`
    input PersonFilter { query: String cpr_numbers: [String!] employee: PersonFilter }
    type Person { uuid: ID! }
    type Query { persons(filter: PersonFilter, limit: Int = 1): [Person!]! }
  `);
  const weigh = (query: string, variables: Record<string, unknown> = {}) => {
    const document = parse(query);
    const operation = getOperationAST(document)!;
    return {
      numbers: cprNumbersInOperation(document, operation, variables),
      cost: weightedCost({ schema, document, operation, variables }),
    };
  };

  it('counts the numbers of an operation, literal, by variable and in fragments, and weighs each in the cost', () => {
    const plain = weigh('{ persons { uuid } }');
    expect(plain.numbers).toBe(0);
    const literal = weigh('{ persons(filter: { employee: { cpr_numbers: ["a", "b"] } }) { uuid } }');
    expect(literal.numbers).toBe(2);
    const byVariable = weigh('query($f: PersonFilter) { persons(filter: $f) { uuid } }', {
      f: { employee: { cpr_numbers: Array.from({ length: 30 }, String), query: '0101701234' } },
    });
    expect(byVariable.numbers).toBe(31);
    expect(byVariable.cost - plain.cost).toBe(31 * cprNumberWeight);
    const inFragment = weigh(
      'query($q: String) { ...F } fragment F on Query { persons(filter: { query: $q }) { uuid } }',
      { q: '0101701234' },
    );
    expect(inFragment.numbers).toBe(1);
  });
});
