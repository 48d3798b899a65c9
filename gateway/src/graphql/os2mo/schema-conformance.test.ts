import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { omissionMismatch, schemaDifferences } from './schema-conformance.js';

const reference = buildSchema(`
  scalar UUID
  scalar int
  enum Kind { A B }
  input UnitFilter { uuids: [UUID!] = null from_date: String = "now" }
  type Unit { uuid: UUID! name: String! children(filter: UnitFilter = null, limit: int = null): [Unit!]! kind: Kind }
  type Audit { id: UUID! }
  type Query { units(filter: UnitFilter = null): [Unit!]! audit: [Audit!]! }
`);

const differencesOf = (served: string) => schemaDifferences(buildSchema(served), reference);

describe('schemaDifferences', () => {
  it('finds nothing between a schema and itself', () => {
    expect(schemaDifferences(reference, reference)).toEqual({ conflicts: [], omissions: [] });
  });

  it('lists what a faithful subset leaves out, a missing type once and not its fields', () => {
    const served = `
      scalar UUID
      enum Kind { A }
      input UnitFilter { uuids: [UUID!] = null }
      type Unit { uuid: UUID! kind: Kind children(filter: UnitFilter = null): [Unit!]! }
      type Query { units(filter: UnitFilter = null): [Unit!]! }
    `;
    expect(differencesOf(served)).toEqual({
      conflicts: [],
      omissions: [
        'Audit',
        'Kind.B',
        'Query.audit',
        'Unit.children(limit:)',
        'Unit.name',
        'UnitFilter.from_date',
        'int',
      ],
    });
  });

  it('calls every addition and every other type, nullability or default a conflict', () => {
    const served = `
      scalar UUID
      scalar int
      scalar Extra
      enum Kind { A B C }
      input UnitFilter { uuids: [UUID!] from_date: String = "now" at: String }
      type Unit { uuid: UUID name: String! children(filter: UnitFilter = null, limit: Int = null): [Unit!]! kind: String }
      type Audit { id: UUID! }
      type Query { units(filter: UnitFilter = null, extra: Extra): [Unit!]! audit: Audit! }
    `;
    expect(differencesOf(served).conflicts).toEqual([
      'Extra: OS2mo has no such type',
      'Kind.C: OS2mo has no such member',
      "Query.audit: ours is Audit!, OS2mo's is [Audit!]!",
      'Query.units(extra:): OS2mo has no such member',
      "Unit.children(limit:): ours is Int = null, OS2mo's is int = null",
      "Unit.kind: ours is String, OS2mo's is Kind",
      "Unit.uuid: ours is UUID, OS2mo's is UUID!",
      'UnitFilter.at: OS2mo has no such member',
      "UnitFilter.uuids: ours is [UUID!] = -, OS2mo's is [UUID!] = null",
    ]);
  });

  it('calls a type of another kind a conflict', () => {
    const served = `scalar UUID enum Audit { X } type Query { audit: [Audit!]! }`;
    expect(differencesOf(served).conflicts).toContain("Audit: ours is enum, OS2mo's is object");
  });
});

describe('omissionMismatch', () => {
  it('names undeclared omissions and stale declarations', () => {
    const differences = { conflicts: [], omissions: ['Audit', 'Unit.name'] };
    expect(
      omissionMismatch(differences, { Audit: 'no audit log', 'Unit.children': 'not yet served' }),
    ).toEqual({ undeclared: ['Unit.name'], stale: ['Unit.children'] });
    expect(omissionMismatch(differences, { Audit: 'a', 'Unit.name': 'b' })).toEqual({
      undeclared: [],
      stale: [],
    });
  });
});
