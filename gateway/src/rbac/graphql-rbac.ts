import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Principal } from '../auth/token-verifier.js';
import type { LegacyLoaders } from '../legacy/legacy-loaders.js';
import type { RbacPolicy } from './rbac-policy.js';
import { writeIntents } from './write-intents.js';

/** What the plugin needs of a GraphQL request's context (the whole context is graphql/'s). */
interface RbacContext {
  legacy: LegacyLoaders;
  principal: Principal;
  today: string;
}

export interface RbacPluginOptions {
  policy: RbacPolicy;
}

/**
 * RBAC for GraphQL mutations. Every mutation writes through `context.legacy.post` (one legacy write
 * request each); this plugin guards that one door, so a mutation is decided by exactly the request it
 * would send — the same `writeIntents` the `/service` middleware decides — and a refused write never
 * reaches the legacy service. A refusal fails only its own field: `null` (mutation payloads are nullable)
 * with an error whose `extensions.code` is `FORBIDDEN` (`CONFLICT` for a create over an existing object);
 * the other fields of the operation run as usual.
 *
 * Each write is decided on reads of its own (`freshOwnershipReads`), made when that mutation runs, so a
 * decision never rests on what an earlier mutation of the same operation read; they count in the request's
 * legacy-call budget.
 *
 * @example
 * createYoga({ schema, plugins: [useRbac({ policy: createRbacPolicy({ enabled: true }) })] });
 */
export function useRbac(options: RbacPluginOptions): Plugin<RbacContext> {
  if (!options.policy.enabled) return {};
  return {
    onContextBuilding({ context, extendContext }) {
      const { legacy, principal, today } = context as Partial<RbacContext>;
      if (!legacy || !principal || !today) return;
      const judge = async (path: string, body: unknown): Promise<void> => {
        const byRole = options.policy.decideByRole(principal);
        const decision =
          byRole ??
          (await options.policy.decide(principal, writeIntents({ method: 'POST', path, body }), {
            // Fresh reads for every write: an earlier mutation of the operation (or anyone else's write
            // meanwhile) may have changed who owns what since the request's cache was filled.
            reads: legacy.freshOwnershipReads(),
            today,
          }));
        if (!decision.allowed) {
          // A create over an existing object gets the code the legacy service's own 409 gets.
          const extensions = decision.conflict
            ? { code: 'CONFLICT', error_key: 'E_ALREADY_EXISTS' }
            : { code: 'FORBIDDEN' };
          throw new GraphQLError(decision.reason, { extensions });
        }
      };
      const post = async <T>(path: string, body: unknown): Promise<T> => {
        await judge(path, body);
        return legacy.post<T>(path, body);
      };
      // `judge` alone: a mutation that reads before it writes is refused first, with nothing read.
      const guarded: LegacyLoaders = { ...legacy, judge, post };
      extendContext({ legacy: guarded });
    },
  };
}
