import { describe, expect, it } from 'vitest';
import { readOrgGraphTypeDefs } from './schema/org-graph.js';
import { buildVersions } from './versions.js';

describe('buildVersions', () => {
  it('hands out the schemas it built for the same org graph and modules again', () => {
    const first = buildVersions();
    const again = buildVersions(readOrgGraphTypeDefs());
    expect(again.every((version, index) => version.schema === first[index]!.schema)).toBe(true);
    // Each caller gets its own list, so one that changes it cannot change another's.
    expect(again).not.toBe(first);
  });

  it('builds again for another org graph', () => {
    const first = buildVersions();
    const graph = `${readOrgGraphTypeDefs()}\n"""A type only this build has."""\ntype BuildKeyProbe { id: ID }\n`;
    const other = buildVersions(graph);
    expect(other[1]!.schema).not.toBe(first[1]!.schema);
    expect(other[1]!.schema.getType('BuildKeyProbe')).toBeDefined();
    expect(buildVersions()[1]!.schema.getType('BuildKeyProbe')).toBeUndefined();
  });

  it('builds again for other v30 modules', () => {
    const first = buildVersions();
    const probe = { typeDefs: 'type ModuleKeyProbe { id: ID }\n', resolvers: {} };
    const other = buildVersions(readOrgGraphTypeDefs(), [probe]);
    expect(other.at(-1)!.schema.getType('ModuleKeyProbe')).toBeDefined();
    expect(buildVersions().at(-1)!.schema.getType('ModuleKeyProbe')).toBeUndefined();
    // One build is kept: back to the defaults, they are built again.
    expect(buildVersions().at(-1)!.schema === first.at(-1)!.schema).toBe(false);
  });
});

describe('a version’s schema', () => {
  it('is built on its first read, not with the list, and kept', () => {
    // A resolver for a field v30 does not have fails v30's build: the list is made, the read fails.
    const broken = { typeDefs: '', resolvers: { Query: { noSuchField: () => null } } };
    const versions = buildVersions(readOrgGraphTypeDefs(), [broken]);
    expect(() => versions.at(-1)!.schema).toThrow(/noSuchField/);
    const v2 = buildVersions()[1]!;
    expect(v2.schema).toBe(v2.schema);
  });
});

describe('a version’s SDL', () => {
  it('is made on its first read, for it and the versions it steps down from, and kept', () => {
    let reads = 0;
    const counting = {
      get typeDefs() {
        reads += 1;
        return 'type SdlProbe { id: ID }\n';
      },
      resolvers: {},
    };
    const versions = buildVersions(readOrgGraphTypeDefs(), [counting]);
    expect(reads).toBe(0);
    const v30 = versions.at(-1)!;
    expect(v30.typeDefs).toContain('type SdlProbe');
    expect(v30.typeDefs).toBe(v30.typeDefs);
    expect(reads).toBe(1);
  });

  it('is parsed without token locations, which would keep its whole token stream alive', () => {
    const versions = buildVersions();
    for (const version of [versions[1]!, versions.at(-1)!]) {
      expect(version.schema.getQueryType()!.astNode!.loc).toBeUndefined();
    }
  });
});
