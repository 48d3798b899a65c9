import type { TypeLedger } from './entry.js';
import { existsIn, isWrite, type LedgerCoordinate } from './index.js';

/** The part of the contract (`openapi/legacy-service.yaml`, parsed) the checks read. */
export interface Contract {
  components: { schemas: Readonly<Record<string, { properties?: Readonly<Record<string, unknown>> }>> };
}

/**
 * The ledger's check against the contract: an `empty` fact says 2.x holds no value, so no contract schema of
 * its type (read or write) may carry a property the fact names absent. Answers each refusal as a sentence,
 * and a type whose map names a schema the contract has not.
 */
export function contractRefusals(types: readonly TypeLedger[], contract: Contract): string[] {
  const schemas = contract.components.schemas;
  return types.flatMap((type) => {
    const unknown = type.contract.filter((name) => !(name in schemas));
    if (unknown.length > 0) return [`${type.type}: the contract has no schema ${unknown.join(', ')}`];
    const entries = [
      ...Object.entries(type.fields).map(([field, entry]) => [`${type.type}.${field}`, entry] as const),
      ...Object.entries(type.more ?? {}),
    ];
    return entries.flatMap(([coordinate, entry]) => {
      if (entry.fact?.answer !== 'empty') return [];
      return type.contract.flatMap((name) =>
        (entry.fact!.absent ?? [])
          .filter((property) => property in (schemas[name]!.properties ?? {}))
          .map((property) => `${coordinate}: the contract's ${name} carries \`${property}\``),
      );
    });
  });
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
