import { getNamedType, isObjectType } from 'graphql';
import { existsIn, nullAnswerWords, nullFactsOf, type NullAnswer } from '../../graphql/os2mo/ledger/index.js';
import { typeMappings, type MappedType } from '../../graphql/write-mapping/type-mappings.js';
import { os2moObjectNames } from '../../legacy/os2mo-type-names.js';
import { servedV30Schema } from '../os2mo-road.js';

/**
 * What replaces each `/service` write on OS2mo's v30: the mutations, and how the Service API body's fields
 * become the mutation's input. The mapping is the one the v30 mutations themselves write through
 * (`write-mapping/type-mappings.ts`), so the two cannot disagree; a mutation is named only when the served
 * v30 has it.
 */
export interface WriteReplacement {
  /** The v30 mutations, by name. */
  mutations: string[];
  /** Service API body field → v30 input field, per record type (`org_unit`, `engagement`, …). */
  mapping: Record<string, Record<string, string>>;
  /** Where the mapping carries `validity.to`: how a Service API last day becomes v30's end. */
  ends?: string;
  /**
   * The input fields of the mutations whose `null`, which v30 reads as a clear, the Service API cannot clear:
   * what the gateway does with it instead, and why (the ledger's value facts, its type ledgers' `nulls`).
   */
  nulls?: { coordinate: string; answer: NullAnswer; reason: string }[];
}

/** OS2mo's v30 ends a period at the instant after it (since v29); the Service API names the last day. */
export const exclusiveEnds =
  "a Service API last day (validity.to) is v30's end the day after (v30's ends are exclusive)";

/**
 * The suite that proves each named mutation against its write: the same change through `/service` and
 * through the mutation (its input made by this mapping) leaves the same records, read back both ways; it
 * fails when a mutation named here is not among those it proves.
 */
export const writeProof = 'test/write-replacements-proof.test.ts';

const detailRecordTypes: MappedType[] = [
  'engagement',
  'manager',
  'owner',
  'it',
  'address',
  'association',
  'leave',
  'kle',
];

/** A type's fields, Service API name → OS2mo input name, with `validity` (both sides' period). */
function fieldsOf(type: MappedType): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [input, field] of Object.entries(typeMappings[type])) {
    fields[field.kind === 'value' ? field.legacy : `${field.legacy}.uuid`] = input;
  }
  return { uuid: 'uuid', ...fields, 'validity.from': 'validity.from', 'validity.to': 'validity.to' };
}

/** The served v30 mutations named `<prefix>_<verb>` for the types, and their fields. */
function served(types: MappedType[], verb: 'create' | 'update' | 'terminate'): WriteReplacement {
  const mutation = servedV30Schema().getMutationType();
  const fields = isObjectType(mutation) ? mutation.getFields() : {};
  const mutations: string[] = [];
  const mapping: WriteReplacement['mapping'] = {};
  for (const type of types) {
    // OS2mo's mutations begin with its name for the type (the Service API's `it` is OS2mo's `ituser`).
    const prefix = os2moObjectNames[type];
    const name = `${prefix}_${verb}`;
    if (prefix === null || fields[name] === undefined) continue;
    mutations.push(name);
    mapping[type] = verb === 'terminate' ? { uuid: 'uuid', 'validity.to': 'to' } : fieldsOf(type);
  }
  const ends = Object.values(mapping).some((fields) => 'validity.to' in fields);
  const nulls = mutations.flatMap((name) => {
    const input = fields[name]!.args.find((argument) => argument.name === 'input');
    if (input === undefined) return [];
    const type = getNamedType(input.type).name;
    return nullFactsOf(type)
      .filter(([, fact]) => existsIn(fact, 30))
      .map(([field, { answer, reason }]) => ({ coordinate: `${type}.${field}`, answer, reason }));
  });
  return {
    mutations,
    mapping,
    ...(ends ? { ends: exclusiveEnds } : {}),
    ...(nulls.length > 0 ? { nulls } : {}),
  };
}

/** The `nulls` of a replacement in a clause: per input type, its fields by what a null gets. */
function nullsClause(nulls: NonNullable<WriteReplacement['nulls']>): string {
  const byInput = new Map<string, Map<NullAnswer, string[]>>();
  for (const { coordinate, answer } of nulls) {
    const [type, field] = coordinate.split('.') as [string, string];
    const answers = byInput.get(type) ?? new Map<NullAnswer, string[]>();
    answers.set(answer, [...(answers.get(answer) ?? []), field]);
    byInput.set(type, answers);
  }
  const parts = [...byInput].map(
    ([type, answers]) =>
      `${type}: ${[...answers].map(([answer, fields]) => `${fields.join(', ')} ${nullAnswerWords[answer]}`).join('; ')}`,
  );
  return `; a null, which v30 reads as a clear, the Service API cannot clear in ${parts.join('; in ')}`;
}

/** Each write of the contract, by operation: the v30 mutations replacing it and the field mapping. */
export function writeReplacements(): Record<string, WriteReplacement> {
  return {
    createOrgUnit: served(['org_unit'], 'create'),
    createEmployee: served(['employee'], 'create'),
    createDetails: served(detailRecordTypes, 'create'),
    editDetails: served([...detailRecordTypes, 'org_unit', 'employee'], 'update'),
    terminateDetails: served(detailRecordTypes, 'terminate'),
    terminateOrgUnit: served(['org_unit'], 'terminate'),
    terminateEmployee: served(['employee'], 'terminate'),
    mapOrgUnits: {
      mutations: ['related_units_update'],
      mapping: {
        related_unit: {
          'origin (path)': 'origin',
          'destination[]': 'destination',
          'validity.from': 'validity.from',
        },
      },
    },
  };
}

/**
 * A write's replacement in one sentence: the v30 mutations, and the Service API names that differ from the
 * input's beyond a reference's `.uuid` (the whole mapping is the entry's `write.mapping`).
 */
export function writeSentence(replacement: WriteReplacement): string {
  const renamed = new Set<string>();
  for (const fields of Object.values(replacement.mapping)) {
    for (const [legacy, input] of Object.entries(fields)) {
      if (legacy !== input && legacy !== `${input}.uuid`) renamed.add(`${legacy} → ${input}`);
    }
  }
  const names = replacement.mutations.join(', ');
  const plural = replacement.mutations.length > 1 ? 's' : '';
  const differ = renamed.size > 0 ? `; Service API names that differ: ${[...renamed].join(', ')}` : '';
  const ends = replacement.ends ? `; ${replacement.ends}` : '';
  const nulls = replacement.nulls ? nullsClause(replacement.nulls) : '';
  return `Replaced on /graphql/v30 by the mutation${plural} ${names}${differ}${ends}${nulls}.`;
}
