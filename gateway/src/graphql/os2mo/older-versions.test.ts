import { buildSchema, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { stepTypeDefs } from './older-versions.js';

const newer = `
  input ManagerFilter { uuids: [String!] = null employee: String }
  type Unit { name: String current(at: String): Unit }
  type Query { units(filter: ManagerFilter): [Unit!]! persons: [Unit!]! }
`;

describe('stepTypeDefs', () => {
  it('removes fields and arguments the older printout lacks, and sets its null defaults', () => {
    const older = printSchema(
      buildSchema(
        stepTypeDefs(newer, {
          name: 'v1',
          undoes: 'test',
          notInPrintout: ['Query.persons', 'Unit.current(at:)'],
          nullDefaults: ['ManagerFilter.employee'],
        }),
      ),
    );
    expect(older).toContain('employee: String = null');
    expect(older).toContain('current: Unit');
    expect(older).not.toContain('persons');
    expect(older).toContain('uuids: [String!] = null');
  });

  it('fails on a coordinate the newer version does not have, so a step cannot outlive its change', () => {
    expect(() => stepTypeDefs(newer, { name: 'v1', undoes: 'test', notInPrintout: ['Query.gone'] })).toThrow(
      "v1's step names Query.gone, which the newer version does not have.",
    );
  });

  it('renames a type everywhere it is named, and removes an input type the older printout lacks', () => {
    const renamed = stepTypeDefs(newer, {
      name: 'v1',
      undoes: 'test',
      renamedTypes: { ManagerFilter: 'ManagersFilter' },
    });
    expect(renamed).toContain('input ManagersFilter');
    expect(renamed).toContain('units(filter: ManagersFilter)');
    expect(renamed).not.toContain('ManagerFilter');
    const removed = stepTypeDefs(renamed, {
      name: 'v0',
      undoes: 'test',
      notInPrintout: ['ManagersFilter', 'Query.units'],
    });
    expect(printSchema(buildSchema(removed))).not.toContain('ManagersFilter');
  });
});
