import { getOperationAST, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { weightedCost } from '../graphql/hardening/weighted-cost.js';
import { detailTypes } from '../legacy/legacy-paths.js';
import { detailQuery, detailQueryBudget, detailRoad, packedTypes } from './detail-comparison.js';
import { servedV30Schema } from './os2mo-road.js';

const uuids = (count: number) =>
  Array.from({ length: count }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`);

const cost = (types: string[], units: string[]) => {
  const request = detailQuery('org_units', types as (typeof detailTypes)[number][], units, 'v30');
  const document = parse(request.query);
  return weightedCost({
    schema: servedV30Schema(),
    document,
    operation: getOperationAST(document)!,
    variables: request.variables,
  });
};

describe('the v30 detail queries, packed under the cost budget', () => {
  const onV30 = (units: string[]) =>
    detailTypes.filter((type) => {
      const road = detailRoad('org_units', type, units);
      return road.version === 'v30' && road.translated;
    });

  it('splits twenty units’ listings into queries each within the budget, the types in order', () => {
    const units = uuids(20);
    const types = onV30(units);
    // One query for all of them would be refused by a gateway at its default cost limit.
    expect(cost(types, units)).toBeGreaterThan(detailQueryBudget);
    const groups = packedTypes('org_units', types, units);
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.flat()).toEqual(types);
    for (const group of groups) expect(cost(group, units)).toBeLessThanOrEqual(detailQueryBudget);
  });

  it('asks three units’ listings in one query', () => {
    const units = uuids(3);
    expect(packedTypes('org_units', onV30(units), units)).toHaveLength(1);
  });
});
