import type { Principal } from '../auth/token-verifier.js';
import type { DetailType } from '../legacy/legacy-loaders.js';
import { decideIntent } from './intent-decision.js';
import { allow, deny, type RbacDecision } from './rbac-decision.js';
import { unitOwnership, type OrganisationReads } from './unit-ownership.js';
import { isUuid } from './write-body-reader.js';
import type { WriteIntent } from './write-intent.js';

/**
 * The RBAC rules (DESIGN.md §5), the one place that applies them. A write — a `/service` request, or the
 * legacy request a GraphQL mutation makes — is first read into write intents (what it does to which
 * unit: `write-intents.ts`, pure), then decided here: the token's role first, then each intent of an
 * owner's write (`intent-decision.ts`) on reads of the organisation (`unit-ownership.ts`).
 *
 * | principal (RBAC on)      | decision                                                                   |
 * |--------------------------|----------------------------------------------------------------------------|
 * | RBAC off                 | every authenticated user may write                                         |
 * | role `admin`             | every write                                                                |
 * | role `owner`, valid uuid | a write whose every touched unit is owned by the token's `uuid` (the unit  |
 * |                          | itself or one of its ancestors) on every day of the period the write       |
 * |                          | affects; never a top-level unit, an employee, a record of a person, his    |
 * |                          | own ownership, a body the policy cannot read, or a list of more than       |
 * |                          | `maxOwnerItems` items                                                      |
 * | neither role             | no write                                                                   |
 */

export interface RbacPolicyOptions {
  /** `IDP_RBAC_ENABLED`: off means every authenticated user may write. */
  enabled: boolean;
  /**
   * Most items an owner may send in one list body (default 100). Each item may need its own reads; an
   * admin's lists are not read, so they are not limited here.
   */
  maxOwnerItems?: number;
  /**
   * Most org units RBAC reads to find an owner's detail that the request does not place (default
   * `defaultMaxScanUnits`); past it the write is refused, so the search stays bounded as the organisation grows.
   */
  maxScanUnits?: number;
}

/** How many items of one owner's write are decided at once; the rest wait, and stop at a refusal. */
const itemsAtOnce = 8;

/**
 * @example
 * const rbac = createRbacPolicy({ enabled: config.idp.rbacEnabled });
 * const decision = rbac.decideByRole(principal) ??
 *   (await rbac.decide(principal, writeIntents({ method, path, body }), { reads: loaders, today }));
 */
export function createRbacPolicy(options: RbacPolicyOptions) {
  const maxOwnerItems = options.maxOwnerItems ?? 100;

  /** The decision the token alone settles (RBAC off, admin, no role), or undefined when units must be read. */
  function decideByRole(principal: Principal): RbacDecision | undefined {
    if (!options.enabled) return allow('RBAC is off: every authenticated user may write.');
    if (principal.roles.includes('admin')) return allow('The admin role may write everything.');
    if (!principal.roles.includes('owner')) {
      return deny(
        'Writing needs the admin role, or the owner role for the units you own; this token has neither.',
      );
    }
    if (!isUuid(principal.employeeUuid)) {
      return deny(
        "The owner role writes only on units its employee owns, and this token's uuid claim is missing or not a UUID.",
      );
    }
    return undefined;
  }

  /**
   * Decides a write by its intents; every intent must be allowed. Items are decided a few at a time, in
   * order, and no new item starts after a refusal: a long list that fails early costs little. Reads are
   * shared by all items (one scan per detail type, one chain per unit and date).
   */
  async function decide(
    principal: Principal,
    intents: readonly WriteIntent[],
    context: { reads: OrganisationReads; today: string },
  ): Promise<RbacDecision> {
    const byRole = decideByRole(principal);
    if (byRole) return byRole;
    if (intents.length > maxOwnerItems) {
      return deny(
        `You may not send ${intents.length} writes in one request: the owner role may send at most ${maxOwnerItems}, because each is checked against the units you own. Split the list.`,
      );
    }
    const scanFrom = new Map<DetailType, string>();
    for (const intent of intents) {
      if (intent.kind !== 'change_detail') continue;
      const known = scanFrom.get(intent.type);
      if (known === undefined || intent.date < known) scanFrom.set(intent.type, intent.date);
    }
    const ownership = unitOwnership(context.reads, {
      employee: principal.employeeUuid!,
      today: context.today,
      scanFrom,
      ...(options.maxScanUnits === undefined ? {} : { maxScanUnits: options.maxScanUnits }),
    });

    const decisions: (RbacDecision | undefined)[] = [];
    /**
     * Decides the items at `indexes`, a few at a time and in order; no new item starts after a refusal.
     * Returns the first refusal among them, and leaves undecided the items that need a scan when
     * `mayScan` is false.
     */
    const decideItems = async (indexes: readonly number[], mayScan: boolean) => {
      let next = 0;
      let refusedAt = Infinity;
      const work = async () => {
        while (next < indexes.length && next < refusedAt) {
          const position = next++;
          const decision = await decideIntent(intents[indexes[position]!]!, {
            ownership,
            reads: context.reads,
            mayScan,
          });
          decisions[indexes[position]!] = decision;
          if (decision && !decision.allowed && position < refusedAt) refusedAt = position;
        }
      };
      await Promise.all(Array.from({ length: Math.min(itemsAtOnce, indexes.length) }, work));
      return refusedAt === Infinity ? undefined : decisions[indexes[refusedAt]!];
    };

    // Everything that needs no scan first: a refusal there costs no scan at all.
    const cheap = await decideItems(
      intents.map((_, index) => index),
      false,
    );
    if (cheap) return cheap;
    // Then the details that need one, one type (one scan) at a time, stopping at the first refusal.
    const byType = new Map<DetailType, number[]>();
    intents.forEach((intent, index) => {
      if (decisions[index] !== undefined || intent.kind !== 'change_detail') return;
      byType.set(intent.type, [...(byType.get(intent.type) ?? []), index]);
    });
    for (const indexes of byType.values()) {
      const refusal = await decideItems(indexes, true);
      if (refusal) return refusal;
    }
    return decisions[0] ?? allow('The write names nothing to check; the legacy service will refuse it.');
  }

  return { enabled: options.enabled, decideByRole, decide };
}

export type RbacPolicy = ReturnType<typeof createRbacPolicy>;
