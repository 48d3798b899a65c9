import type { DetailType } from '../legacy/legacy-loaders.js';
import type { DetailHints } from './unit-ownership.js';

/**
 * What one write does, in the RBAC rules' own terms: the meeting point of the two halves of the room.
 * `write-intents.ts` reads a legacy write into these (pure), `intent-decision.ts` decides them. The union
 * is closed: a new kind is a compile error in `intent-decision.ts` and `intent-description.ts` until it
 * is decided and worded there.
 *
 * `date` is the write's own date (its `from`, or the `to` of a termination); `until` the end date it
 * gives, if any. Together they make the period the write affects (`periodOf`), over which ownership is
 * judged.
 */
export type WriteIntent =
  /**
   * `parent: null` is a top-level unit: admin only. `uuid`: the one the client chose, which must not name
   * a unit already (OS2mo 2.x writes a create over the unit of that UUID).
   */
  | { kind: 'create_unit'; parent: string | null; date: string; until?: string; uuid?: string }
  /** Rename, retype or relabel; no move. */
  | { kind: 'change_unit'; unit: string; date: string; until?: string }
  /** Needs the unit and the new parent; `parent: null` moves it to the top level: admin only. */
  | { kind: 'move_unit'; unit: string; parent: string | null; date: string; until?: string }
  /**
   * `date` is the unit's last active day (`validity.to` of the deprecated form) or its first inactive day
   * (`validity.from` of the `{from, to}` form, whose `to` is then `until`).
   */
  | { kind: 'terminate_unit'; unit: string; date: string; until?: string }
  /** `unit: null` is a record of a person (owner or IT account of an employee): admin only. */
  | {
      kind: 'create_detail';
      type: DetailType;
      unit: string | null;
      date: string;
      until?: string;
      /** An owner record of a unit: the employee it makes owner. */
      appoints?: string;
      /** The UUID the client chose for the record: admin only (see `chosenDetailUuid`). */
      uuid?: string;
      /** A record an `ou/create` makes in the new unit: `unit` is then the new unit's parent. */
      inNewUnit?: true;
    }
  /**
   * Checked against the unit the record is in on `date`; an edit that moves it (`newUnit`) also against
   * the new unit, `newUnit: null` meaning it leaves org units for a person: admin only.
   */
  | {
      kind: 'change_detail';
      action: 'edit' | 'terminate';
      type: DetailType;
      uuid: string;
      date: string;
      until?: string;
      newUnit?: string | null;
      /** An edit of an owner record that names its owner: the employee it makes owner. */
      appoints?: string;
      hints: DetailHints;
    }
  /** An employee is not an org unit: admin only. */
  | { kind: 'employee'; action: 'create' | 'edit' | 'terminate'; uuid: string | null }
  /** `POST /service/f/{facet}/` (OS2mo 2.4.0 `service/facet.py:800`): a class, created or written anew: admin only. */
  | { kind: 'class'; facet: string }
  /** A body or endpoint the policy cannot read: admin only (the legacy service will say what is wrong). */
  | { kind: 'unreadable'; problem: string };

/** The intent of one kind, e.g. `IntentOf<'move_unit'>`. */
export type IntentOf<K extends WriteIntent['kind']> = Extract<WriteIntent, { kind: K }>;

/** A write as it goes to the legacy service. `body` is the parsed JSON. */
export interface LegacyWrite {
  method: string;
  /** The path as the legacy service routes it, e.g. `/service/details/edit`. */
  path: string;
  body: unknown;
}
