import { isInputObjectType, type GraphQLInputField, type GraphQLSchema } from 'graphql';
import type { NullFact, TypeLedger } from './entry.js';
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

/** An input field of a schema, by coordinate (`Input.field`). */
function inputField(schema: GraphQLSchema, coordinate: string): GraphQLInputField | undefined {
  const [typeName, field] = coordinate.split('.');
  const type = schema.getType(typeName!);
  return isInputObjectType(type) ? type.getFields()[field!] : undefined;
}

/**
 * The ledger's check of its value facts against OS2mo's printouts (each with the versions it shows) and this
 * gateway's own v1 and v2 schemas: a fact names an input field OS2mo prints in each version of its range, and
 * that range is where OS2mo reads a null as a clear, i.e. where the field is printed without a default (OS2mo
 * prints `= null` where a null is the same as leaving the field out); its v1/v2 field is in both. Answers each
 * refusal as a sentence.
 */
export function nullFactRefusals(
  facts: ReadonlyMap<string, NullFact>,
  printouts: readonly { versions: readonly number[]; schema: GraphQLSchema }[],
  gateway: Readonly<Record<string, GraphQLSchema>>,
): string[] {
  return [...facts].flatMap(([coordinate, fact]) => {
    const os2mo = printouts.flatMap(({ versions, schema }) =>
      versions.flatMap((version) => {
        const field = inputField(schema, coordinate);
        const clears = field !== undefined && field.defaultValue === undefined;
        const where = `${coordinate} in v${version}`;
        if (!existsIn(fact, version)) {
          return clears ? [`${where}: printed without a default, so OS2mo reads a null as a clear`] : [];
        }
        if (field === undefined) return [`${where}: not printed`];
        return clears ? [] : [`${where}: printed with \`= null\`, so OS2mo reads a null as left out`];
      }),
    );
    const ours = Object.entries(gateway).flatMap(([version, schema]) =>
      fact.v1v2 !== undefined && inputField(schema, fact.v1v2) === undefined
        ? [`${coordinate}: ${version} has no ${fact.v1v2}`]
        : [],
    );
    const bare =
      fact.reason && fact.what && fact.evidence.length > 0
        ? []
        : [`${coordinate}: no reason, words or evidence`];
    return [...os2mo, ...ours, ...bare];
  });
}
