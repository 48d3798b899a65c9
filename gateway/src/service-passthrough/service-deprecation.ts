import type { Context, MiddlewareHandler } from 'hono';
import type { GatewayVariables } from '../auth/bearer-auth.js';
import { replacementSentence } from '../comparison/coverage/replacements.js';
import type { ContractOperation } from '../contract/contract-operations.js';
import type { EndpointDeprecation } from '../deprecation/deprecation-config.js';
import {
  deprecationNotice,
  refusal,
  signalDeprecation,
  type DeprecationNotice,
} from '../deprecation/deprecation-notice.js';
import { endpointTemplates } from '../contract/endpoint-templates.js';
import { isUnderPrefix, routedMethod } from '../contract/routed-path.js';

export interface ServiceDeprecationOptions {
  /** The configured entries (`DEPRECATION_CONFIG`'s `endpoints`); must not be empty. */
  endpoints: EndpointDeprecation[];
  /** The contract's operations, to find each request's endpoint template and its replacement. */
  operations: readonly ContractOperation[];
  guideUrl: string;
  clock?: () => Date;
  /**
   * Whether a request is the comparison tools' own (the workbench's in-process reads, the CLI as a tool
   * client): they still see the signals, but neither a brownout nor a retirement closes their road.
   */
  isToolRequest?: (c: Context<{ Variables: GatewayVariables }>) => boolean;
}

/** An entry for a prefix, with a notice per endpoint it covers (each names its own replacement). */
interface PrefixEntry {
  method: string | undefined;
  prefix: string;
  notices: Map<string | undefined, DeprecationNotice>;
  entry: EndpointDeprecation;
}

/**
 * The deprecation signals of `/service`, after the bearer token (a brownout spares exempt clients, known by
 * the token's `azp`): a request to a configured endpoint gets `Deprecation`, `Sunset` and `Link` on its
 * answer, or `410 E_GONE` naming the replacement during a brownout and once retired. An entry naming one
 * operation wins over a prefix; the longest prefix wins over shorter ones. The comparison tools' requests
 * (`isToolRequest`) are never refused: the tools that find the last callers must outlive each switch-off.
 * Mount it only when there are entries: without, `/service` does no deprecation work at all.
 *
 * @example
 * serviceDeprecation({ endpoints: settings.endpoints, operations, guideUrl, clock });
 */
export function serviceDeprecation(
  options: ServiceDeprecationOptions,
): MiddlewareHandler<{ Variables: GatewayVariables }> {
  const templates = endpointTemplates(options.operations);
  const byKey = new Map(
    options.operations.map((operation) => [`${operation.method} ${operation.path}`, operation]),
  );
  const notice = (entry: EndpointDeprecation, key: string | undefined) =>
    deprecationNotice(key ?? entry.endpoint, entry, {
      replacement:
        entry.replacement ??
        (key === undefined ? 'the GraphQL API (/graphql)' : replacementSentence(byKey.get(key)!)),
      guideUrl: options.guideUrl,
    });

  const exact = new Map<string, DeprecationNotice>();
  for (const entry of options.endpoints.filter((item) => item.template !== undefined)) {
    for (const operation of options.operations) {
      if (operation.path !== entry.template || (entry.method ?? operation.method) !== operation.method)
        continue;
      const key = `${operation.method} ${operation.path}`;
      if (!exact.has(key)) exact.set(key, notice(entry, key));
    }
  }
  const prefixes: PrefixEntry[] = options.endpoints
    .filter((item) => item.prefix !== undefined)
    .map((entry) => ({ method: entry.method, prefix: entry.prefix!, notices: new Map(), entry }))
    .sort((a, b) => b.prefix.length - a.prefix.length);

  const find = (method: string, path: string): DeprecationNotice | undefined => {
    const key = templates.match(method, path);
    const named = key === undefined ? undefined : exact.get(key);
    if (named) return named;
    const effective = routedMethod(method);
    const prefix = prefixes.find(
      (item) => isUnderPrefix(path, item.prefix) && (item.method === undefined || item.method === effective),
    );
    if (!prefix) return undefined;
    let found = prefix.notices.get(key);
    if (!found) prefix.notices.set(key, (found = notice(prefix.entry, key)));
    return found;
  };

  return async (c, next) => {
    const found = find(c.req.method, c.req.path);
    if (!found) return next();
    const gone = refusal(found, options.clock?.() ?? new Date(), c.get('principal')?.clientId);
    if (gone && !options.isToolRequest?.(c)) throw gone;
    await next();
    signalDeprecation(c.res.headers, found);
  };
}
