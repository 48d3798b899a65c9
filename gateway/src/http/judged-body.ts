import type { Context, MiddlewareHandler } from 'hono';
import { GatewayError } from '../errors/gateway-error.js';
import { parseStrictJson } from './strict-json.js';

/** A request body as it was read once: the bytes to forward and the value every decision reads. */
export interface JudgedBody {
  /** Undefined when the request has no body (or an empty one). */
  bytes: Uint8Array | undefined;
  /** The parsed JSON; undefined when there is no body. */
  value: unknown;
}

/** Per request (keyed by its context), so every step that reads the body reads the same one. */
const judged = new WeakMap<Context, Promise<JudgedBody>>();

const badBody = (problem: string) =>
  new GatewayError(
    400,
    'INVALID_JSON',
    `The request body is not accepted: ${problem}. Send UTF-8 JSON without a byte order mark, without NaN or Infinity, with each member once per object.`,
    { errorKey: 'E_INVALID_INPUT' },
  );

/**
 * Why the body's bytes are not what they look like, if so: a backend that honours `Content-Encoding` or
 * a charset would read other text than the bytes the gateway judged.
 */
function encodingProblem(c: Context): string | undefined {
  const encoding = c.req.header('content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') return `it is sent with Content-Encoding: ${encoding}`;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i
    .exec(c.req.header('content-type') ?? '')
    ?.at(1)
    ?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') return `it is declared in charset ${charset}`;
  return undefined;
}

const isForm = (c: Context) =>
  /^application\/x-www-form-urlencoded\s*(;|$)/i.test(c.req.header('content-type') ?? '');

async function readOnce(c: Context): Promise<JudgedBody> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return { bytes: undefined, value: undefined };
  const bytes = c.req.raw.body === null ? new Uint8Array() : new Uint8Array(await c.req.raw.arrayBuffer());
  if (bytes.byteLength === 0) return { bytes: undefined, value: undefined };
  const problem = encodingProblem(c);
  if (problem) throw badBody(problem);
  // A form is forwarded as sent and judged unread: OS2mo 2.4.0 takes one only at /service/token (its login
  // helper, `auth/keycloak/router.py`), and RBAC refuses a write whose body it cannot read to all but an admin.
  if (isForm(c)) return { bytes, value: undefined };
  const parsed = parseStrictJson(bytes);
  if (!parsed.ok) throw badBody(parsed.problem);
  return { bytes, value: parsed.value };
}

/**
 * The request's body, read and parsed strictly (`parseStrictJson`) the first time any step asks, and the
 * same bytes and value every time after: RBAC decides on `value`, the passthrough forwards `bytes`, so what
 * reaches the backend is exactly what was judged. A body that is not strict JSON throws 400 `INVALID_JSON`
 * (`E_INVALID_INPUT`). GET and HEAD have none.
 *
 * @example
 * const { value } = await judgedBody(c);
 */
export function judgedBody(c: Context): Promise<JudgedBody> {
  let body = judged.get(c);
  if (body === undefined) {
    body = readOnce(c);
    judged.set(c, body);
  }
  return body;
}

/**
 * A chain step that reads every body strictly before anything else decides on it, whatever the caller's
 * role: a body no one may send is refused for everyone, before RBAC reads a unit. Put it after the body
 * limit (which buffers the body, bounded in size and time).
 *
 * @example
 * routeChain([bearerAuth(…), bufferedBody(…), strictJsonBody(), serviceRbac(…), passthrough], onError);
 */
export function strictJsonBody(): MiddlewareHandler {
  return async (c, next) => {
    await judgedBody(c);
    return next();
  };
}
