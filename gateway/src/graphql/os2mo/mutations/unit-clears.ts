import { GraphQLError } from 'graphql';
import type { GraphQLContext } from '../../context.js';
import type { Input } from '../../write-mapping/legacy-body.js';
import {
  dayOf,
  readByUuid,
  readOwnerListing,
  touchesDays,
  type BackendGet,
  type Days,
} from '../../../backend-record/backend-reads.js';
import type { BackendVersion } from '../../../backend-record/backend-objects.js';
import { NOT_SERVED_CODE } from '../omission-errors.js';
import { nullFactsOf } from '../ledger/index.js';
import { unitHierarchyUuid } from '../unit-hierarchy.js';

/**
 * The unit fields whose `null` (a clear, OS2mo v22 on) the Service API cannot honour and that are refused where
 * the unit holds one, each with the words a refusal uses: the ledger's value facts on
 * `OrganisationUnitUpdateInput` (`../ledger/organisation-unit.ts`, which gives the reasons and evidence). A
 * `null` time planning is such a field too, but kept rather than refused (the ledger says why).
 */
const refusedWhenHeld = nullFactsOf('OrganisationUnitUpdateInput', 'refused when held');

/**
 * Which input a refusal names: OS2mo's (`OrganisationUnitUpdateInput`, v22 on) or this gateway's own v1/v2
 * (`OrgUnitUpdateInput`, only the fields the ledger gives a `v1v2` twin), each field with its refusal's words
 * and coordinate.
 */
const refusedOn = {
  os2mo: new Map(
    refusedWhenHeld.map(([field, fact]) => [
      field,
      { what: fact.what, coordinate: `OrganisationUnitUpdateInput.${field}` },
    ]),
  ),
  v1v2: new Map(
    refusedWhenHeld.flatMap(([field, fact]) =>
      fact.v1v2 === undefined ? [] : [[field, { what: fact.what, coordinate: fact.v1v2 }] as const],
    ),
  ),
};

/**
 * The unit's versions touching `days`: 2.4.0's reading API (`/api/v1/org_unit/by_uuid`, one call), else the
 * Service API's `details/org_unit` in the scopes that cover `days` (two or three calls). Read through a cache
 * of its own, so that nothing read here answers the reads of the mutation's result after the write.
 */
async function unitVersions(
  get: BackendGet,
  uuid: string,
  days: Days,
  at: string,
): Promise<BackendVersion[]> {
  const read =
    (await readByUuid(get, 'org_unit', [uuid], days, at)) ??
    (await readOwnerListing(get, 'org_unit', { unit: uuid }, days, at));
  return read.filter((version) => touchesDays(version, days));
}

/** Whether the unit holds a class for `field` on some day of `days`, in one of `versions`. */
async function holds(
  context: GraphQLContext,
  field: string,
  uuid: string,
  versions: readonly BackendVersion[],
  days: Days,
): Promise<boolean> {
  if (field !== 'org_unit_hierarchy') {
    return versions.some(
      (version) => typeof (version[field] as { uuid?: unknown } | null)?.uuid === 'string',
    );
  }
  // No unit read of 2.4.0 gives the hierarchy; the parent's filtered children listing does, on the first day of
  // each version inside `days`. 2.4.0's unit reader does not split versions where the hierarchy (`opmærkning`)
  // changes (its `_get_effects` leaves it out, `handler/impl/org_unit.py`@2.4.0 lines 54–64). But the only
  // writes of a hierarchy, `ou/create` and the unit edit, also write the unit's `gyldighed` over the same
  // period (`service/orgunit.py`@2.4.0 line 209, `update_payload` at 291), which the reader does split on, so a
  // hierarchy changes only where a version starts. Every version carries its `parent`, so nothing reads the
  // unit itself. One version at a time (each asks every hierarchy class), stopping at the first that holds one.
  const start = days.from ?? context.today;
  for (const version of versions) {
    const from = dayOf((version.validity as { from?: unknown } | undefined)?.from);
    const at = from !== null && from > start ? from : start;
    if ((await unitHierarchyUuid({ ...version, uuid, __at: at }, context)) !== null) return true;
  }
  return false;
}

/**
 * Refuses an `org_unit_update` that asks (`null`: OS2mo v22 on, and this gateway's v1/v2) to clear a unit's
 * level or hierarchy the unit holds somewhere in the edit's `days`: the Service API would answer success and
 * keep the class, a silent no-op where the client asked for a clear. A `null` for a field the unit holds
 * nowhere in `days` changes nothing in OS2mo either, and passes (OS2mo's UI sends `org_unit_level: null` for a
 * unit without a level). Nothing is written before this decides, and nothing is read before RBAC has judged
 * `write`, the Service API write the mutation then sends. `road` says whose input it is: OS2mo's, or this
 * gateway's own v1/v2 (`OrgUnitUpdateInput`, which has the level only); the refusal's `coordinate` names it.
 *
 * The refusal's sentence is its own rather than `notServedMessage`'s: that one says OS2mo has a coordinate
 * this gateway does not serve, where here the field is served and only its `null`, on this unit, is not.
 */
export async function refuseUnbackableClears(
  context: GraphQLContext,
  input: Input,
  days: Days,
  write: { path: string; body: unknown },
  road: keyof typeof refusedOn = 'os2mo',
): Promise<void> {
  const refused = refusedOn[road];
  const nulled = [...refused.keys()].filter((field) => input[field] === null);
  if (nulled.length === 0 || typeof input.uuid !== 'string') return;
  // RBAC first, on the very write: a user who may not make it is refused as for it, with nothing read.
  await context.legacy.judge(write.path, write.body);
  const get = context.legacy.freshGets();
  const fresh: GraphQLContext = { ...context, legacy: { ...context.legacy, get } };
  const versions = await unitVersions(get, input.uuid, days, context.today);
  for (const field of nulled) {
    if (!(await holds(fresh, field, input.uuid, versions, days))) continue;
    const { what, coordinate } = refused.get(field)!;
    throw new GraphQLError(
      `The Service API (OS2mo 2.4.0) cannot clear a unit's ${what}, and this unit has one in the period of the edit, so nothing was written. Leave \`${field}\` out to keep the unit's ${what}, or give a class to change it.`,
      { extensions: { code: NOT_SERVED_CODE, coordinate } },
    );
  }
}
