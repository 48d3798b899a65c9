import type { OmissionList } from '../schema-conformance.js';
import {
  newestVersion,
  oldestVersion,
  type CoordinateEntry,
  type Fact,
  type FieldView,
  type NullFact,
  type Range,
  type TypeLedger,
  type TypeView,
} from './entry.js';
import { address } from './address.js';
import { association } from './association.js';
import { classType } from './class.js';
import { employee } from './employee.js';
import { engagement } from './engagement.js';
import { facet } from './facet.js';
import { itSystem } from './it-system.js';
import { itUser } from './it-user.js';
import { kle } from './kle.js';
import { leave } from './leave.js';
import { manager } from './manager.js';
import { mutations } from './mutations.js';
import { organisation } from './organisation.js';
import { organisationUnit } from './organisation-unit.js';
import { os2moItself } from './os2mo-itself.js';
import { owner } from './owner.js';
import { registrationLedger } from './registrations.js';
import { relatedUnit } from './related-unit.js';
import { responseLedger } from './responses.js';
import { roleBinding, roleBindingTypeDefs } from './role-binding.js';
import { validity } from './validity.js';

export type {
  Evidence,
  Fact,
  FieldView,
  NullAnswer,
  NullFact,
  Range,
  TypeLedger,
  TypeView,
} from './entry.js';

/** The ledger of every OS2mo type, in the order v30 prints the viewed types. */
export const typeLedgers: readonly TypeLedger[] = [
  organisationUnit,
  employee,
  engagement,
  manager,
  classType,
  facet,
  itSystem,
  owner,
  address,
  association,
  itUser,
  kle,
  leave,
  relatedUnit,
  organisation,
  validity,
  roleBinding,
];

/** The ledger's coordinates that belong to no one type: mutations, registrations, OS2mo's own, responses. */
const sharedLedgers: readonly Readonly<Record<string, CoordinateEntry>>[] = [
  mutations,
  registrationLedger,
  os2moItself,
  responseLedger,
];

/** How the backend answers a coordinate. */
export type Answer = 'served' | 'empty' | 'omitted';

/** One coordinate of the ledger, flattened: its answer, range and fact, and the type ledger it is in. */
export interface LedgerCoordinate extends Range {
  coordinate: string;
  answer: Answer;
  fact?: Fact;
  /** The type ledger that declares it (absent: a shared one). */
  owner?: TypeLedger;
}

function flatten(): ReadonlyMap<string, LedgerCoordinate> {
  const all = new Map<string, LedgerCoordinate>();
  const put = (coordinate: string, entry: CoordinateEntry, owner?: TypeLedger) => {
    if (all.has(coordinate)) throw new Error(`${coordinate} is in the ledger twice.`);
    const { since, until, fact } = entry;
    all.set(coordinate, {
      coordinate,
      answer: fact?.answer ?? 'served',
      ...(since === undefined ? {} : { since }),
      ...(until === undefined ? {} : { until }),
      ...(fact ? { fact } : {}),
      ...(owner ? { owner } : {}),
    });
  };
  for (const ledger of typeLedgers) {
    for (const [field, entry] of Object.entries(ledger.fields)) put(`${ledger.type}.${field}`, entry, ledger);
    for (const [coordinate, entry] of Object.entries(ledger.more ?? {})) put(coordinate, entry, ledger);
  }
  for (const shared of sharedLedgers) {
    for (const [coordinate, entry] of Object.entries(shared)) put(coordinate, entry);
  }
  return all;
}

/** Every coordinate of the ledger, by coordinate. */
export const ledger: ReadonlyMap<string, LedgerCoordinate> = flatten();

/** The facts about a `null` given to a served input field (each type ledger's `nulls`), by input coordinate. */
export const nullFacts: ReadonlyMap<string, NullFact> = typeLedgers.reduce((all, ledger) => {
  for (const [coordinate, fact] of Object.entries(ledger.nulls ?? {})) {
    if (all.has(coordinate)) throw new Error(`${coordinate}'s null is in the ledger twice.`);
    all.set(coordinate, fact);
  }
  return all;
}, new Map<string, NullFact>());

/** A value fact's answer in the words the coverage report uses. */
export const nullAnswerWords: Readonly<Record<NullFact['answer'], string>> = {
  'refused when held':
    "refused (NOT_SERVED_BY_THIS_BACKEND) where the record holds one in the write's period",
  kept: 'kept (not cleared)',
};

/** The fields of OS2mo's `input` type whose `null` a fact of `answer` is about, each with its fact. */
export function nullFactsOf(input: string, answer?: NullFact['answer']): [field: string, fact: NullFact][] {
  return [...nullFacts].flatMap(([coordinate, fact]) => {
    const [type, field] = coordinate.split('.');
    return type === input && (answer === undefined || fact.answer === answer) ? [[field!, fact]] : [];
  });
}

/** Whether OS2mo's schema of `version` has a coordinate of this range. */
export const existsIn = (range: Range, version: number): boolean =>
  (range.since ?? oldestVersion) <= version && version < (range.until ?? newestVersion + 1);

/**
 * The views v30 serves, one per viewed type: its served fields, and the fields the backend never holds a
 * value for, answered empty (`none`: the reason). Omitted fields are not in the view.
 */
export const v30TypeViews: Readonly<Record<string, TypeView>> = Object.fromEntries(
  typeLedgers.flatMap((ledger) => {
    if (ledger.graphType === undefined) return [];
    const fields: Record<string, FieldView> = {};
    for (const [name, entry] of Object.entries(ledger.fields)) {
      if (entry.fact?.answer === 'omitted') continue;
      if (entry.fact?.answer === 'empty') {
        const { type, args, deprecated } = entry as { type: string; args?: string; deprecated?: string };
        // A bound filter such a field takes filters nothing, but its input type is served like a link's.
        const input = /filter: (\w+)/.exec(args ?? '')?.[1];
        fields[name] = {
          type,
          none: entry.fact.reason,
          ...(input ? { filter: { input, listing: null } } : {}),
          ...(args ? { args } : {}),
          ...(deprecated ? { deprecated } : {}),
        };
        continue;
      }
      const {
        since: _since,
        until: _until,
        fact: _fact,
        ...view
      } = entry as FieldView & Range & { fact?: undefined };
      fields[name] = view;
    }
    const description = ledger.description === undefined ? {} : { description: ledger.description };
    return [[ledger.type, { graphType: ledger.graphType, ...description, fields }]];
  }),
);

/** A field the gateway answers with OS2mo's empty answer, because 2.x never held a value for it. */
export interface HeldNone {
  /** `Type.field` of OS2mo's schema. */
  coordinate: string;
  /** OS2mo's type of the field; nullable, a list, or a `*ResponsePaged!`, which decides the answer. */
  type: string;
  reason: string;
}

/** Every field the ledger answers empty (an `empty` fact), with its type and reason. */
export const backendHoldsNone: readonly HeldNone[] = typeLedgers.flatMap((ledger) =>
  Object.entries(ledger.fields).flatMap(([field, entry]) =>
    entry.fact?.answer === 'empty'
      ? [
          {
            coordinate: `${ledger.type}.${field}`,
            type: (entry as { type: string }).type,
            reason: entry.fact.reason,
          },
        ]
      : [],
  ),
);

/** OS2mo's types of which the backend holds no object at all, with their SDL (served so queries validate). */
export const heldNoneTypes: readonly { type: string; reason: string; typeDefs: string }[] = [
  { type: 'RoleBinding', reason: ledger.get('RoleBinding')!.fact!.reason, typeDefs: roleBindingTypeDefs },
];

const omittedIn = (keep: (entry: LedgerCoordinate) => boolean): OmissionList =>
  Object.fromEntries(
    [...ledger.values()]
      .filter((entry) => entry.answer === 'omitted' && keep(entry))
      .map((entry) => [entry.coordinate, entry.fact!.reason]),
  );

/**
 * Everything OS2mo's v30 schema has that the gateway's v30 does not serve, each with its reason. The
 * conformance test (`test/os2mo-conformance.test.ts`) fails on an omission missing here and on an entry that
 * is served (or that OS2mo no longer has), so the ledger holds the whole difference.
 */
export const v30Omissions: OmissionList = omittedIn((entry) => entry.until === undefined);

/** What `version` of OS2mo has that v30 has not, and the gateway does not serve either. */
const olderOmissionsOf = (version: number): OmissionList =>
  omittedIn((entry) => entry.until !== undefined && existsIn(entry, version));

/**
 * For each older version held to an OS2mo printout, what that printout has beyond v30's omissions, each with
 * its reason: the conformance test checks both ways.
 */
export const olderOmissions: Readonly<Record<string, OmissionList>> = Object.fromEntries(
  [25, 22, 21].map((version) => [`v${version}`, olderOmissionsOf(version)]),
);

const versionNumbers = Array.from(
  { length: newestVersion - oldestVersion + 1 },
  (_, index) => oldestVersion + index,
);
const byVersion: ReadonlyMap<string, OmissionList> = new Map(
  versionNumbers.map((version) => [`v${version}`, { ...v30Omissions, ...olderOmissionsOf(version) }]),
);

/**
 * What OS2mo's schema of `version` has and the gateway leaves out, each with its reason; none for a version
 * that is not OS2mo's (v1, v2).
 */
export function declaredOmissionsOf(version: string): OmissionList | undefined {
  return byVersion.get(version);
}

/** Whether a coordinate is of OS2mo's mutations (a Mutation field, an input type or its field). */
export const isWrite = (coordinate: string): boolean =>
  coordinate.startsWith('Mutation.') || /^\w+Input(\.|$)/.test(coordinate);

/**
 * The served (or empty) coordinates OS2mo added in `version`: the rung one step below it removes them,
 * reads (`side: 'reads'`) from the read SDL and writes from the mutation SDL.
 */
export function addedIn(version: number, side: 'reads' | 'writes'): string[] {
  return [...ledger.values()]
    .filter((entry) => entry.answer !== 'omitted' && entry.since === version)
    .filter((entry) => isWrite(entry.coordinate) === (side === 'writes'))
    .map((entry) => entry.coordinate);
}

/** A write coordinate a version leaves out, with the reason. */
export interface Omission {
  /** A Mutation field (`org_unit_delete`) or an input field or type (`ITUserCreateInput.note`). */
  coordinate: string;
  reason: string;
}

/** The reason a coordinate OS2mo added later is not in an older version. */
const notYet = (since: number, version: number) =>
  `absent from OS2mo's printout of v${version}: OS2mo added it in v${since} (each served version stays a subset of its printout)`;

/**
 * What the mutations of `version` leave out beyond v30's (`omittedMutationFields`, `omittedInputFields`):
 * what OS2mo added after it, and what it has that no newer version has.
 */
export function writeOmissionsOf(version: number): Omission[] {
  return [...ledger.values()]
    .filter((entry) => isWrite(entry.coordinate))
    .flatMap((entry) => {
      if (entry.answer !== 'omitted' && entry.since !== undefined && entry.since > version) {
        return [{ coordinate: entry.coordinate, reason: notYet(entry.since, version) }];
      }
      const field = entry.coordinate.includes('.');
      if (entry.answer === 'omitted' && field && entry.until !== undefined && existsIn(entry, version)) {
        return [{ coordinate: entry.coordinate, reason: entry.fact!.reason }];
      }
      return [];
    });
}

const v30Writes = Object.keys(v30Omissions).filter(isWrite);

/** OS2mo's Mutation fields (without `Mutation.`) v30 leaves out, each with the reason. */
export const omittedMutationFields: readonly Omission[] = v30Writes
  .filter((coordinate) => coordinate.startsWith('Mutation.'))
  .map((coordinate) => ({
    coordinate: coordinate.slice('Mutation.'.length),
    reason: v30Omissions[coordinate]!,
  }));

/** OS2mo's input fields of served input types that v30 leaves out, each with the reason. */
export const omittedInputFields: readonly Omission[] = v30Writes
  .filter((coordinate) => /^\w+Input\.\w+$/.test(coordinate))
  .map((coordinate) => ({ coordinate, reason: v30Omissions[coordinate]! }));
