import type { MiddlewareHandler } from 'hono';
import { GatewayError } from '../errors/gateway-error.js';
import { alsoOnReadLane } from './read-lane-steps.js';
import { requestTarget } from './service-passthrough.js';

/**
 * Bytes a path may carry percent-encoded: those that cannot appear in it as they are (space, `"`, `<`,
 * `>`, `^`, `` ` ``, `{`, `|`, `}`, and every byte of a non-ASCII character). Decoding one of them never
 * makes a separator or a letter, so the path the gateway matches and the one the backend routes after
 * decoding (uvicorn unquotes the whole path before Starlette routes it) have the same segments and literals.
 */
const mustBeEncoded = new Set([0x20, 0x22, 0x3c, 0x3e, 0x5e, 0x60, 0x7b, 0x7c, 0x7d]);
const encodedByte = /%([0-9A-Fa-f]{2})?/g;

/** What a character of the path decodes to, in words, for the refusal. */
function described(byte: number): string {
  if (byte === 0x2f) return 'a "/" (%2F)';
  if (byte === 0x5c) return 'a "\\" (%5C)';
  if (byte === 0x2e) return 'a "." (%2E)';
  if (byte === 0x25) return 'a "%" (%25)';
  if (byte < 0x20 || byte === 0x7f) return 'a control character';
  return `"${String.fromCharCode(byte)}" (%${byte.toString(16).toUpperCase().padStart(2, '0')})`;
}

/**
 * Why a `/service` path (without its query) could be read two ways, if so: a percent-encoded separator
 * (`/`, `\`, `;`, `?`, `#`), dot, letter, digit or other character that needs no encoding, an encoded `%`
 * (decoded twice by some proxies), a control character, a stray `%`, or encoded bytes that are not UTF-8.
 *
 * @example
 * servicePathProblem('/service/e%2Fcpr_lookup/'); // 'it holds a "/" (%2F) …'
 */
export function servicePathProblem(path: string): string | undefined {
  if (!path.includes('%')) return undefined;
  for (const match of path.matchAll(encodedByte)) {
    if (match[1] === undefined) return 'it holds a "%" that starts no percent-encoded byte';
    const byte = Number.parseInt(match[1], 16);
    if (byte < 0x80 && !mustBeEncoded.has(byte)) return `it holds ${described(byte)} written percent-encoded`;
  }
  try {
    decodeURIComponent(path);
  } catch {
    return 'its percent-encoded bytes are not UTF-8';
  }
  return undefined;
}

/**
 * Query parameters OS2mo 2.4.0 reads as lists (`uuid`: `service/orgunit.py` 780 and 1222, `service/facet.py` 66,
 * `api/v1/reading_endpoints.py` 217 and 273; `count`: `service/orgunit.py` 391, `getlist('count')`). Any other
 * parameter is one value, which Starlette takes from its last occurrence and `URLSearchParams.get` from its
 * first: given twice, the gateway would judge one value and the backend act on another.
 */
const listParameters = new Set(['uuid', 'count']);

/**
 * Why a `/service` query could be read two ways, if so: a one-value parameter given more than once.
 *
 * @example
 * serviceQueryProblem('query=Alice&query=0101011234'); // 'the parameter "query" is given 2 times …'
 */
export function serviceQueryProblem(query: string): string | undefined {
  if (query === '') return undefined;
  const seen = new Map<string, number>();
  for (const [name] of new URLSearchParams(query)) seen.set(name, (seen.get(name) ?? 0) + 1);
  for (const [name, times] of seen) {
    if (times > 1 && !listParameters.has(name)) {
      return `the parameter "${name}" is given ${times} times, and it takes one value: give it once`;
    }
  }
  return undefined;
}

/** Whether a query holds a one-value parameter more than once (`serviceQueryProblem`); cheap for the read lane. */
export function hasRepeatedParameter(query: string): boolean {
  return serviceQueryProblem(query) !== undefined;
}

/**
 * The first step for every `/service` request: a path the gateway and the backend could route apart is
 * refused with 400 `INVALID_PATH` (`E_INVALID_PATH`) before the token, deprecation, usage, the CPR gate or
 * the passthrough see it, so each of them judges the string that is forwarded; so is a query that gives a
 * one-value parameter twice (`serviceQueryProblem`). Refusing rather than
 * decoding keeps one spelling per endpoint: no client needs to encode a separator or a letter, and a
 * decoded `%2F` would make a path no client meant. The read lane never takes a path with a `%`, so it
 * needs no such step.
 *
 * @example
 * routeChain([canonicalServicePath(), bearerAuth(…), …], onError);
 */
export function canonicalServicePath(): MiddlewareHandler {
  return alsoOnReadLane(async (c, next) => {
    const target = requestTarget(c.req.url).target;
    const queryStart = target.indexOf('?');
    const problem = servicePathProblem(queryStart === -1 ? target : target.slice(0, queryStart));
    if (problem) {
      throw new GatewayError(
        400,
        'INVALID_PATH',
        `The path is not accepted: ${problem}. Write separators, dots, letters and digits as they are; percent-encode only characters a URL cannot hold.`,
        { errorKey: 'E_INVALID_PATH' },
      );
    }
    const queryProblem = queryStart === -1 ? undefined : serviceQueryProblem(target.slice(queryStart + 1));
    if (queryProblem) {
      throw new GatewayError(400, 'INVALID_QUERY', `The query is not accepted: ${queryProblem}.`, {
        errorKey: 'E_INVALID_QUERY',
      });
    }
    return next();
  });
}
