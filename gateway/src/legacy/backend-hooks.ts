import type { DetailType } from './legacy-paths.js';

/**
 * What legacy access offers whoever keeps a record of the backend (`backend-record/`), in legacy access's own
 * terms: the loaders and the passthrough tell each accepted write, and ask where objects were last seen. The
 * record implements these; legacy access never imports it.
 */

/** The kinds of backend object: each detail type, units and people. */
export type ObjectType = DetailType | 'org_unit' | 'employee';

/** Whose listing holds an object: a person's, else a unit's. Units and people are their own. */
export interface ObjectOwner {
  person?: string;
  unit?: string;
}

/** A write the backend accepted: where it went, what was sent and what the backend answered. */
export interface BackendWrite {
  path: string;
  body: unknown;
  answer?: unknown;
  /** The writer's `Authorization`, for the record's reads back when `LEGACY_CREDENTIALS=relay`. */
  authorization?: string;
}

/** Called by both write roads once the backend accepted a write; never throws, never waits. */
export type WriteHook = (write: BackendWrite) => void;

/** Where the record last saw objects: for each UUID it knows of the type, whose listing holds it. */
export type Whereabouts = (type: ObjectType, uuids: readonly string[]) => Promise<Map<string, ObjectOwner>>;
