import type { TypeLedger } from './entry.js';
import { existsIn, isWrite, type LedgerCoordinate } from './index.js';

interface SchemaObject {
  properties?: Readonly<Record<string, SchemaObject>>;
  allOf?: readonly SchemaObject[];
}

/** The part of the contract (`openapi/legacy-service.yaml`, parsed) the checks read. */
export interface Contract {
  components: { schemas: Readonly<Record<string, SchemaObject>> };
}

/** A record schema's own property names: its properties, its `allOf` parts', and an edit's `data`. */
function propertyNames(schema: SchemaObject): Set<string> {
  const names = new Set<string>();
  for (const part of [schema, ...(schema.allOf ?? [])]) {
    for (const [name, property] of Object.entries(part.properties ?? {})) {
      names.add(name);
      if (name === 'data') for (const inner of Object.keys(property.properties ?? {})) names.add(inner);
    }
  }
  return names;
}

/**
 * The ledger's check against the contract: an `empty` fact says 2.x holds no value, so no contract schema of
 * the record that would hold it (read or write; the record's type's `contract` map) may carry a property the
 * fact names absent. Answers each refusal as a sentence, and each map naming a schema the contract has not
 * (so that a map cannot silently check nothing).
 */
export function contractRefusals(types: readonly TypeLedger[], contract: Contract): string[] {
  const schemas = contract.components.schemas;
  const byType = new Map(types.map((type) => [type.type, type]));
  const unknown = types.flatMap((type) =>
    type.contract
      .filter((name) => !(name in schemas))
      .map((name) => `${type.type}: the contract has no schema ${name}`),
  );
  const refused = types.flatMap((type) => {
    const entries = [
      ...Object.entries(type.fields).map(([field, entry]) => [`${type.type}.${field}`, entry] as const),
      ...Object.entries(type.more ?? {}),
    ];
    return entries.flatMap(([coordinate, entry]) => {
      const fact = entry.fact;
      if (fact?.answer !== 'empty') return [];
      const record = byType.get(fact.record ?? type.type);
      if (!record || record.contract.length === 0) {
        return [`${coordinate}: no contract schema is mapped for ${fact.record ?? type.type}`];
      }
      return record.contract
        .filter((name) => name in schemas)
        .flatMap((name) => {
          const carried = propertyNames(schemas[name]!);
          return (fact.absent ?? [])
            .filter((property) => carried.has(property))
            .map((property) => `${coordinate}: the contract's ${name} carries \`${property}\``);
        });
    });
  });
  return [...unknown, ...refused];
}

/** The fact a read coordinate names: its member less OS2mo's spellings (`_uuid`, `_response`, a plural). */
function stemOf(coordinate: string): string | undefined {
  const member = /^\w+\.(\w+)$/.exec(coordinate)?.[1];
  return member?.replace(/_(responses?|uuids?|user_keys?)$/, '').replace(/s$/, '');
}

/**
 * The facts of one type answered otherwise in one spelling than in another: left out (an error) where
 * another spelling answers (served, or empty). Reads of v30 only: a write of a fact 2.x holds none of is
 * left out, as there is nowhere to put it.
 */
export function splitFacts(coordinates: Iterable<LedgerCoordinate>): string[] {
  const groups = new Map<string, LedgerCoordinate[]>();
  for (const entry of coordinates) {
    const stem = stemOf(entry.coordinate);
    if (!entry.owner || stem === undefined || isWrite(entry.coordinate) || !existsIn(entry, 30)) continue;
    const key = `${entry.owner.type} ${stem}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  return [...groups.entries()].flatMap(([key, entries]) => {
    const omitted = entries.filter((entry) => entry.answer === 'omitted');
    const answered = entries.filter((entry) => entry.answer !== 'omitted');
    if (omitted.length === 0 || answered.length === 0) return [];
    const names = (list: LedgerCoordinate[]) => list.map((entry) => entry.coordinate).join(', ');
    return [`${key}: omitted as ${names(omitted)}; answered as ${names(answered)}`];
  });
}
