import type { Database } from '../database/database.js';
import type { Logger } from '../observability/logger.js';
import type { ObjectOwner, ObjectSighting, ObjectType } from './backend-objects.js';

/** Which source noticed a change: a write through the gateway, the sweep of the backend, or a validity date. */
export type ChangeSource = 'write' | 'sweep' | 'boundary';

/** "An object changed": what the event API needs to send OS2mo's event for it. */
export interface ObjectChange {
  type: ObjectType;
  uuid: string;
  owner: ObjectOwner;
  source: ChangeSource;
}

/**
 * Told of every change the record notices. It is awaited: a listener that rejects fails the note, so the sweep
 * does not move past a change whose event was not kept, and looks again in its next round.
 */
export type ObjectChangeListener = (change: ObjectChange) => void | Promise<void>;

export type { Whereabouts } from '../legacy/backend-hooks.js';
import type { Whereabouts } from '../legacy/backend-hooks.js';

/** An object whose next validity boundary has come. */
export interface DueObject {
  type: ObjectType;
  uuid: string;
  owner: ObjectOwner;
}

export interface BackendRecord {
  /**
   * Keeps what `sightings` say of each object and tells the listeners of each whose content differs from what
   * the record held (or is new to it); with `always`, of each (a write is a change even if it changed nothing
   * the hash sees). Quiet: kept, no listener told (the first round on an empty record is a baseline, not a
   * change). Answers the changes noticed.
   */
  note(
    sightings: readonly ObjectSighting[],
    source: ChangeSource,
    options?: { always?: boolean; quiet?: boolean },
  ): Promise<ObjectChange[]>;
  whereabouts: Whereabouts;
  /** Objects whose next boundary is on or before `today`, at most `limit`. */
  dueBoundaries(today: string, limit: number): Promise<DueObject[]>;
  /** Clears the boundary of objects the backend no longer has, so they are not asked for again. */
  forgetBoundaries(objects: readonly DueObject[]): Promise<void>;
  /** Subscribes to every change noticed by any source; answers the unsubscription. */
  onObjectChanged(listener: ObjectChangeListener): () => void;
}

interface StoredRow {
  type: ObjectType;
  uuid: string;
  content_hash: string;
}

const batchSize = 500;

const ownerFrom = (row: { owner_person: string | null; owner_unit: string | null }): ObjectOwner => ({
  ...(row.owner_person ? { person: row.owner_person } : {}),
  ...(row.owner_unit ? { unit: row.owner_unit } : {}),
});

/**
 * The record of the backend in the gateway's database (`backend_object`, migration `0010_backend_record.sql`):
 * what each object is, whose it is and a hash of its content, fed by every source; never the content itself.
 *
 * @example
 * const record = createBackendRecord({ database, logger });
 * record.onObjectChanged(({ type, uuid, owner, source }) => emitEvent(type, uuid, owner, source));
 */
export function createBackendRecord(options: { database: Database; logger?: Logger }): BackendRecord {
  const { database } = options;
  const listeners = new Set<ObjectChangeListener>();

  const storedHashes = async (sightings: readonly ObjectSighting[]) => {
    const { rows } = await database.query<StoredRow>(
      `SELECT type, uuid::text AS uuid, content_hash FROM backend_object
        WHERE (type, uuid) IN (SELECT * FROM unnest($1::varchar[], $2::uuid[]))`,
      [sightings.map((s) => s.type), sightings.map((s) => s.uuid)],
    );
    return new Map(rows.map((row) => [`${row.type}/${row.uuid}`, row.content_hash]));
  };

  const keep = (sightings: readonly ObjectSighting[], source: ChangeSource) =>
    database.query(
      `INSERT INTO backend_object
         (type, uuid, owner_person, owner_unit, valid_from, valid_to, content_hash, next_boundary, seen_by, last_seen)
       SELECT t.*, now() FROM unnest($1::varchar[], $2::uuid[], $3::uuid[], $4::uuid[], $5::date[], $6::date[],
                                     $7::char(64)[], $8::date[], $9::varchar[]) AS t
       ON CONFLICT (type, uuid) DO UPDATE SET
         owner_person = EXCLUDED.owner_person, owner_unit = EXCLUDED.owner_unit,
         valid_from = EXCLUDED.valid_from, valid_to = EXCLUDED.valid_to,
         content_hash = EXCLUDED.content_hash, next_boundary = EXCLUDED.next_boundary,
         seen_by = EXCLUDED.seen_by, last_seen = EXCLUDED.last_seen`,
      [
        sightings.map((s) => s.type),
        sightings.map((s) => s.uuid),
        sightings.map((s) => s.owner.person ?? null),
        sightings.map((s) => s.owner.unit ?? null),
        sightings.map((s) => s.validFrom),
        sightings.map((s) => s.validTo),
        sightings.map((s) => s.contentHash),
        sightings.map((s) => s.nextBoundary),
        sightings.map(() => source),
      ],
    );

  const tell = async (changes: ObjectChange[]) => {
    for (const change of changes) {
      await Promise.all([...listeners].map(async (listener) => listener(change)));
    }
  };

  return {
    async note(sightings, source, { always = false, quiet = false } = {}) {
      const changes: ObjectChange[] = [];
      for (let start = 0; start < sightings.length; start += batchSize) {
        const batch = sightings.slice(start, start + batchSize);
        const held = await storedHashes(batch);
        const changed = batch.filter(
          (s) => always || held.get(`${s.type}/${s.uuid.toLowerCase()}`) !== s.contentHash,
        );
        // Kept first, told after: a listener that fails leaves the record right, and the source tells again.
        if (changed.length > 0) await keep(changed, source);
        const batchChanges = changed.map(({ type, uuid, owner }) => ({ type, uuid, owner, source }));
        if (!quiet) await tell(batchChanges);
        changes.push(...batchChanges);
      }
      return changes;
    },
    async whereabouts(type, uuids) {
      if (uuids.length === 0) return new Map();
      const { rows } = await database.query<{
        uuid: string;
        owner_person: string | null;
        owner_unit: string | null;
      }>(
        `SELECT uuid::text AS uuid, owner_person::text AS owner_person, owner_unit::text AS owner_unit
           FROM backend_object WHERE type = $1 AND uuid = ANY($2::uuid[])`,
        [type, uuids.filter((uuid) => /^[0-9a-f-]{36}$/i.test(uuid))],
      );
      return new Map(rows.map((row) => [row.uuid, ownerFrom(row)]));
    },
    async dueBoundaries(today, limit) {
      const { rows } = await database.query<{
        type: ObjectType;
        uuid: string;
        owner_person: string | null;
        owner_unit: string | null;
      }>(
        `SELECT type, uuid::text AS uuid, owner_person::text AS owner_person, owner_unit::text AS owner_unit
           FROM backend_object WHERE next_boundary <= $1::date ORDER BY next_boundary LIMIT $2`,
        [today, limit],
      );
      return rows.map((row) => ({ type: row.type, uuid: row.uuid, owner: ownerFrom(row) }));
    },
    async forgetBoundaries(objects) {
      if (objects.length === 0) return;
      await database.query(
        `UPDATE backend_object SET next_boundary = NULL
          WHERE (type, uuid) IN (SELECT * FROM unnest($1::varchar[], $2::uuid[]))`,
        [objects.map((o) => o.type), objects.map((o) => o.uuid)],
      );
    },
    onObjectChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
