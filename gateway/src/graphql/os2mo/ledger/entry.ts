import type { LinkListing } from '../link-filters.js';

/**
 * The shape of the ledger: for every OS2mo coordinate this backend does not simply serve in every version,
 * how it answers (served, empty because 2.x holds none, omitted with an error), the versions OS2mo has it in,
 * the reason and the evidence. The rest of the OS2mo schema code reads its answers from here (`index.ts`).
 */

/** OS2mo's versions served, v21 … v30: a range's bounds. */
export const oldestVersion = 21;
export const newestVersion = 30;

/**
 * The versions OS2mo has a coordinate in, as OS2mo marks its own fields: from `since` (inclusive; absent:
 * v21, the oldest served) up to `until` (exclusive; absent: still in v30). The conformance test holds each
 * range to OS2mo's printouts (v21, v22, v25, v29 = v30); between two printouts the range is this backend's
 * word, written where the version ladder changes it (`older-versions.ts`).
 */
export interface Range {
  since?: number;
  until?: number;
}

/**
 * Where a reader checks a fact: the contract (`contract:Schema`, `contract:Schema.property`, or a path,
 * `contract:/service/o/{orgid}/it/`), or a line of OS2mo's source at a tag
 * (`os2mo:backend/mora/service/facet.py@2.4.0:404`).
 */
export type Evidence = `contract:${string}` | `os2mo:${string}@${string}:${number}`;

/**
 * One fact about the backend, answered alike in every spelling that names it (`parent`, `parent_uuid`,
 * `parent_response`, a filter's `parent`): `empty` (OS2mo's empty answer: null, an empty list or an empty
 * page, because no 2.x record holds a value; a filter member asking for such a value keeps no object given
 * one, and every object given null) or `omitted` (not in the served schema; a query naming it gets
 * `NOT_SERVED_BY_THIS_BACKEND` with the reason).
 */
export interface Fact {
  answer: 'empty' | 'omitted';
  /** Our own sentence: why the backend answers so. */
  reason: string;
  evidence: readonly Evidence[];
  /**
   * For an `empty` fact: the properties the 2.x record lacks, which no contract schema of the record's type
   * may carry (the ledger's check, `ledger-checks.ts`).
   */
  absent?: readonly string[];
  /**
   * For an `empty` fact: the OS2mo type whose 2.x record would hold the value, where a link is read backwards
   * (an IT account's addresses would be named by the address); default: the coordinate's own type.
   */
  record?: string;
}

export type EmptyFact = Fact & { answer: 'empty' };
export type OmittedFact = Fact & { answer: 'omitted' };

/** A fact 2.x holds no value for: answered with OS2mo's empty answer. */
export const holdsNone = (
  reason: string,
  evidence: readonly Evidence[],
  absent: readonly string[],
  record?: string,
): EmptyFact => ({ answer: 'empty', reason, evidence, absent, ...(record ? { record } : {}) });

/** A fact the backend cannot (or does not yet) serve: left out, and a query naming it is told why. */
export const notServed = (reason: string, evidence: readonly Evidence[]): OmittedFact => ({
  answer: 'omitted',
  reason,
  evidence,
});

/** One served field of an OS2mo type: its type as OS2mo declares it, and the org graph field that backs it. */
export interface FieldView {
  /** OS2mo's type of the field, e.g. `[Employee!]` (a graph link to one object may be a list in OS2mo). */
  type: string;
  /** The org graph field (of the graph type this OS2mo type views) that answers it; default: the same name. */
  from?: string;
  /** OS2mo's arguments that the gateway honours, as SDL; arguments not written here are declared omissions. */
  args?: string;
  /** Our own one-line reason, for a field OS2mo marks deprecated. */
  deprecated?: string;
  /**
   * Read from the legacy record's own property of this name, which the org graph keeps from v1 and v2
   * (see `not-public.ts`); its resolver is written beside the version.
   */
  legacy?: string;
  /**
   * OS2mo's `*_response` link: the linked object's response wrapper (`one`), or a page of them (`paged`,
   * with `limit` and `cursor`), made from the graph field (a link, or a `*_uuid` key) that gives the objects.
   */
  response?: 'one' | 'paged';
  /**
   * The link takes OS2mo's `filter` (written in `args`): the bound filter's input type, and the detail
   * listing its window reads (null: the link's objects are the same at every time, as a facet's classes).
   */
  filter?: { input: string; listing: LinkListing | null };
  /** Served with OS2mo's empty answer: the reason the backend never holds a value. */
  none?: string;
  /** Answered by a resolver of its own, written beside the version, from Service API reads the graph has not. */
  own?: true;
}

/** An OS2mo type viewed over one org graph type. */
export interface TypeView {
  graphType: string;
  description?: string;
  fields: Readonly<Record<string, FieldView>>;
}

/** A field of a viewed type: served through the view, answered empty, or omitted. */
export type FieldEntry =
  | (FieldView & Range & { fact?: undefined })
  | (Range & { fact: EmptyFact; type: string; args?: string; deprecated?: string })
  | (Range & { fact: OmittedFact });

/** Any other coordinate (a filter member, an input field, a mutation, a type, an argument). */
export type CoordinateEntry = Range & { fact?: Fact };

/**
 * What the backend does with a `null` given to a served input field where OS2mo reads it as a clear:
 * `refused when held` (refused with `NOT_SERVED_BY_THIS_BACKEND`, nothing written, when the object holds a
 * value for the field on a day of the write's period; holding none, the null changes nothing and passes) or
 * `kept` (written, and the object keeps its value).
 */
export type NullAnswer = 'refused when held' | 'kept';

/**
 * A fact about one value of an input field, `null`, rather than the whole coordinate (which stays served):
 * where the Service API cannot clear what OS2mo clears. Its range is the versions in which OS2mo reads the
 * null as a clear (OS2mo prints such a field without a default; `= null` makes a null the same as leaving the
 * field out), not the versions that have the field.
 */
export interface NullFact extends Range {
  answer: NullAnswer;
  /** What the field holds, in the words an answer uses (`level`: "a unit's level"). */
  what: string;
  /** Our own sentence: why the backend answers so. */
  reason: string;
  evidence: readonly Evidence[];
  /** The same input field in this gateway's v1 and v2, which read a null as a clear too (absent: they have none). */
  v1v2?: string;
}

/** The ledger of one OS2mo type: its fields, the contract schemas of its 2.x records, and its family's coordinates. */
export interface TypeLedger {
  /** OS2mo's type. */
  type: string;
  /** The org graph type OS2mo's type views; absent: it is not viewed (held none, or not served). */
  graphType?: string;
  description?: string;
  /**
   * The contract's schemas (`openapi/legacy-service.yaml`) of the 2.x record behind the type, read and
   * written (an edit's `data` counts): an `empty` fact of the type must name a property none of them carries.
   */
  contract: readonly string[];
  fields: Readonly<Record<string, FieldEntry>>;
  /** The coordinates of the type's filters, inputs, mutations and kin, by full coordinate. */
  more?: Readonly<Record<string, CoordinateEntry>>;
  /** Facts about a `null` given to its served input fields, by full coordinate (`…UpdateInput.field`). */
  nulls?: Readonly<Record<string, NullFact>>;
}

/** A field answered with OS2mo's empty answer for `fact`. */
export const empty = (
  fact: EmptyFact,
  type: string,
  extra: { args?: string; deprecated?: string } & Range = {},
): FieldEntry => ({ fact, type, ...extra });

/** A field or coordinate left out for `fact`. */
export const omitted = (fact: OmittedFact, range: Range = {}): FieldEntry & CoordinateEntry => ({
  fact,
  ...range,
});

/** Several coordinates of one fact (or served in one range), by full coordinate. */
export function at(
  fact: Fact | undefined,
  coordinates: readonly string[],
  range: Range = {},
): Record<string, CoordinateEntry> {
  return Object.fromEntries(
    coordinates.map((coordinate) => [coordinate, { ...range, ...(fact ? { fact } : {}) }]),
  );
}

/** Served coordinates OS2mo added in `since` (absent from its printouts before). */
export const added = (since: number, coordinates: readonly string[]) => at(undefined, coordinates, { since });

export const pageArgs = 'limit: int = null, cursor: Cursor = null';

/** A link that takes OS2mo's bound `filter` (then `rest` of its arguments), read from a detail listing. */
export const bound = (input: string, listing: LinkListing | null, rest?: string) => ({
  args: [`filter: ${input}`, rest].filter(Boolean).join(', '),
  filter: { input: input.replace(/ = null$/, ''), listing },
});

/** A link to the objects its object names by UUID (OS2mo's `UuidsBound…Filter`), paged as collections are. */
export const byUuids = (type: string) => bound(`UuidsBound${type}Filter`, null, pageArgs);

/** The arguments of such a link, as SDL (for a field answered empty). */
export const uuidsBoundArgs = (type: string) => `filter: UuidsBound${type}Filter, ${pageArgs}`;

export const usePerson = 'Use `person`.';
export const useUuidField = (field: string) => `Use \`${field} { uuid }\`.`;
export const dropsRootOrganisation = 'OS2mo is dropping the root organisation.';

/** OS2mo added the `*_response` links in v26: v25's printout has none. */
export const responses = 26;
