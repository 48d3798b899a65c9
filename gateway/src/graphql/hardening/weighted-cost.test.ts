import { buildSchema, getOperationAST, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { weightedCost } from './weighted-cost.js';

const schema = buildSchema(`
  type Unit { uuid: ID! name: String! children(limit: Int): UnitPage! }
  type UnitPage { objects: [Unit!]! }
  input UnitFilter { uuids: [ID!] }
  type CprLookup { name: String }
  type Query { units(limit: Int = 100, filter: UnitFilter): UnitPage! cpr_lookup(cpr_number: String!): CprLookup }
`);

function costOf(query: string, variables: Record<string, unknown> = {}, operationName?: string) {
  const document = parse(query);
  const operation = getOperationAST(document, operationName)!;
  return weightedCost({ schema, document, operation, variables });
}

describe('the weighted cost of one request', () => {
  const byVariable = 'query ($n: Int) { units(limit: $n) { objects { uuid name } } }';

  it('weighs the limit each request’s own variables give, for one and the same document', () => {
    const cheap = costOf(byVariable, { n: 1 });
    expect(costOf(byVariable, { n: 1000 })).toBe(cheap * 1000);
    expect(costOf(byVariable, { n: 1 })).toBe(cheap);
  });

  it('weighs the schema’s default page size when the variable is not given, and fewer UUIDs when named', () => {
    const cheap = costOf(byVariable, { n: 1 });
    expect(costOf(byVariable)).toBe(cheap * 100);
    expect(costOf('{ units(filter: { uuids: ["a", "b"] }) { objects { uuid name } } }')).toBe(cheap * 2);
  });

  it('weighs a link without a limit as the objects of one object, a tenth of an unlimited listing', () => {
    const children = (limit: string) =>
      costOf(`{ units(limit: 1) { objects { uuid children${limit} { objects { uuid } } } } }`);
    expect(children('')).toBe(children('(limit: 10)'));
    expect(children('')).toBeLessThan(children('(limit: 100)'));
    expect(costOf('{ units(limit: null) { objects { uuid } } }')).toBe(
      100 * costOf('{ units(limit: 1) { objects { uuid } } }'),
    );
  });

  it('weighs the operation the request runs, not the others of its document', () => {
    const document = `
      query Small { units(limit: 1) { objects { uuid } } }
      query Large { units(limit: 1000) { objects { uuid } } }`;
    expect(costOf(document, {}, 'Large')).toBe(costOf(document, {}, 'Small') * 1000);
  });

  it('weighs a fragment where it is spread', () => {
    const spread = costOf(
      'query ($n: Int) { units(limit: $n) { ...page } } fragment page on UnitPage { objects { uuid name } }',
      { n: 10 },
    );
    expect(spread).toBeGreaterThan(costOf(byVariable, { n: 10 }));
  });

  it('weighs a CPR lookup as 500 objects, so the default limit of 20,000 allows 11 probes and not 12 (issue 28)', () => {
    const probes = (count: number) =>
      `{ ${Array.from({ length: count }, (_, i) => `p${i}: cpr_lookup(cpr_number: "${i}") { name }`).join(' ')} }`;
    expect(costOf(probes(1))).toBe((2 + 1.5) * 500);
    expect(costOf(probes(11))).toBeLessThanOrEqual(20_000);
    expect(costOf(probes(12))).toBeGreaterThan(20_000);
  });
});
