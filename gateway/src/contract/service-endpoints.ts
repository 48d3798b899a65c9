import { endpointTemplates } from './endpoint-templates.js';
import { unknownEndpointLabels } from './unknown-endpoints.js';

/** One `/service` operation of the contract, as usage names it: method, path template and query flags. */
export interface ServiceEndpoint {
  method: string;
  /** The contract's path template, e.g. `/service/ou/{uuid}/details/engagement`. */
  path: string;
  /** The query parameters the contract gives the operation, in the contract's order. */
  flags: readonly string[];
}

/** What one `/service` call is attributed to. */
export interface ServiceAttribution {
  /**
   * `GET /service/ou/{uuid}/details/engagement`; for a path the contract does not have, `unmatched`, or its own
   * label (`unknownEndpointLabel`) when the attributor counts unknown paths.
   */
  endpoint: string;
  /** The contract's flags the call used, sorted and comma-separated (`at,validity=past`); `none` for none. */
  flags: string;
}

/** `validity`'s values as a bounded set: the three the contract names, and any `FROM/TO` interval. */
function flagValue(name: string, value: string): string {
  if (name !== 'validity') return name;
  return ['present', 'past', 'future'].includes(value) ? `validity=${value}` : 'validity=interval';
}

/**
 * Attributes `/service` calls to the contract's operations. Labels are bounded by construction: an endpoint is
 * one of the contract's templates (or `unmatched`), its flags a subset of that operation's query parameters.
 *
 * @example
 * const attribute = serviceAttributor(serviceEndpoints);
 * attribute('GET', '/service/ou/1f…/details/manager', new URLSearchParams('inherit_manager=1'));
 * // { endpoint: 'GET /service/ou/{uuid}/details/manager', flags: 'inherit_manager' }
 */
export function serviceAttributor(
  endpoints: readonly ServiceEndpoint[],
  options: {
    /**
     * Count paths the contract does not have under their own labels, at most this many different ones (then
     * `unmatched`): the gateway forwards them, and usage shows who still calls them.
     */
    unknownPaths?: number;
  } = {},
): (method: string, pathname: string, query: URLSearchParams) => ServiceAttribution {
  // Matching is the passthrough's (`endpointTemplates`, shared with deprecation); the flags are usage's own.
  const templates = endpointTemplates(endpoints);
  const byKey = new Map(endpoints.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint]));
  const unknown =
    options.unknownPaths === undefined ? undefined : unknownEndpointLabels(options.unknownPaths);

  return (method, pathname, query) => {
    const key = templates.match(method, pathname);
    const endpoint = key === undefined ? undefined : byKey.get(key);
    if (key === undefined || endpoint === undefined) {
      return { endpoint: unknown?.(method, pathname) ?? 'unmatched', flags: 'none' };
    }
    const used = new Set<string>();
    for (const [name, value] of query) {
      if (endpoint.flags.includes(name)) used.add(flagValue(name, value));
    }
    return {
      endpoint: key,
      flags: used.size === 0 ? 'none' : [...used].sort().join(','),
    };
  };
}
