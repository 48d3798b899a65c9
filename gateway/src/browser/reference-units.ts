import type { LegacyClient } from '../legacy/legacy-client.js';
import { createLegacyLoaders } from '../legacy/legacy-loaders.js';

/** Where the pages ask for the reference units, after sign-in, with their bearer token. */
export const referenceUnitsPath = '/browser/reference-units';

export interface ReferenceUnitOptions {
  legacy: LegacyClient;
  /**
   * Units named by configuration (`GATEWAY_REFERENCE_UNITS`; `npm start` names the stand-in's reference
   * units), used as they are: then the docs, the start banner and the tools show the same units.
   */
  configured?: readonly string[];
  /** How many units the tools open with: the specification's reference query names three. */
  count?: number;
  /** How long a finding is kept; the legacy data changes rarely and the pages only need a start. */
  ttlMs?: number;
  /** Units read per legacy page, and how many pages at most, so a unit-poor backend costs little. */
  pageSize?: number;
  maxPages?: number;
  now?: () => number;
}

/**
 * The units the browser tools open with (GraphiQL's reference query, the workbench's comparison): the
 * configured ones if any, otherwise the first units in the legacy service's own order that have a manager today, so the reference query shows
 * managers, manager types and job functions on whatever backend the gateway stands in front of. Found
 * with the caller's credential, kept for `ttlMs`, looked up once however many pages ask at the same time.
 *
 * @example
 * const referenceUnits = createReferenceUnits({ legacy });
 * await referenceUnits.find('Bearer eyJ…'); // → ['f41291dc-…', …]
 */
export function createReferenceUnits(options: ReferenceUnitOptions) {
  const count = options.count ?? 3;
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const pageSize = options.pageSize ?? 20;
  const maxPages = options.maxPages ?? 5;
  const now = options.now ?? Date.now;
  let kept: { units: string[]; until: number } | undefined;
  let pending: Promise<string[]> | undefined;

  const lookUp = async (authorization: string | undefined): Promise<string[]> => {
    const reads = createLegacyLoaders(options.legacy, { authorization });
    const today = new Date(now()).toISOString().slice(0, 10);
    const found: string[] = [];
    for (let page = 0; page < maxPages && found.length < count; page += 1) {
      const units = await reads.orgUnitPage(today, page * pageSize, pageSize);
      const managed = await Promise.all(
        units.items.map(async (unit) =>
          (await reads.unitDetails('manager', unit.uuid, { at: today })).length > 0 ? unit.uuid : undefined,
        ),
      );
      for (const uuid of managed) if (uuid !== undefined && found.length < count) found.push(uuid);
      if ((page + 1) * pageSize >= units.total) break;
    }
    return found;
  };

  return {
    /** The reference units; a failed lookup is not kept, so the next page tries again. */
    find(authorization: string | undefined): Promise<string[]> {
      if (options.configured !== undefined && options.configured.length > 0) {
        return Promise.resolve([...options.configured]);
      }
      if (kept && kept.until > now()) return Promise.resolve(kept.units);
      pending ??= lookUp(authorization)
        .then((units) => {
          kept = { units, until: now() + ttlMs };
          return units;
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
  };
}

export type ReferenceUnits = ReturnType<typeof createReferenceUnits>;
