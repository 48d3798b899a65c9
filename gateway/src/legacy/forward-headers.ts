/**
 * Which headers the `/service` passthrough sends on, each way. Upstream, only an allow-list of the
 * client's headers goes on (`forwardedRequestHeaders`); everything else the backend receives is the
 * gateway's own: `X-Forwarded-For/-Proto/-Host` from what it saw, the backend credential, its request id
 * and, with tracing on, its own `traceparent`. A client's header outside the list (`X-Original-URL`,
 * `X-Remote-User`, `True-Client-IP`, `X-Forwarded-*`, `baggage`, `tracestate`, method overrides, cookies …)
 * never reaches a backend or proxy that might believe it. Downstream, hop-by-hop headers (RFC 9110 §7.6.1)
 * and every header a `Connection:` header names describe one connection, not the message.
 */
const hopByHop = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
];

/**
 * The client's request headers the backend may see: content negotiation, the body's type and conditional
 * requests, which change what a Service API answer is, and `User-Agent` for the backend's own logs.
 */
export const forwardedRequestHeaders: readonly string[] = [
  'accept',
  'accept-encoding',
  'accept-language',
  'content-type',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-unmodified-since',
  'user-agent',
];
const droppedResponseHeaders = new Set(hopByHop);

const namesNone: ReadonlySet<string> = new Set();

/** The header names a `Connection:` value lists (`close` and `keep-alive` included; they are dropped anyway). */
function namedInConnection(connection: string | null | undefined): ReadonlySet<string> {
  // Nearly every message says nothing or only `keep-alive`/`close`, which name no other header.
  if (!connection || /^\s*(?:keep-alive|close)\s*$/i.test(connection)) return namesNone;
  return new Set(
    (connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name.length > 0),
  );
}

/** What the gateway itself saw of the client, for `X-Forwarded-*`. */
export interface ClientView {
  /** The peer address of the client's connection, when known. */
  address?: string;
  /** `http` or `https`, as the gateway was reached. */
  protocol: string;
  /** The `Host` the client addressed. */
  host: string;
}

/**
 * A client's request headers: a Web `Headers`, or a record of lower-case names with repeated headers joined
 * by `, ` as `Headers` joins them (what the `/service` read lane makes from Node's `rawHeaders`).
 */
export type ClientHeaders = Headers | Readonly<Record<string, string>>;

/** One of a client's request headers by its lower-case name. */
export function clientHeader(incoming: ClientHeaders, name: string): string | undefined {
  return incoming instanceof Headers ? (incoming.get(name) ?? undefined) : incoming[name];
}

/**
 * The headers to send upstream for a client's request: the allowed ones the client sent (less any its
 * `Connection:` names), the gateway's view of the client, then `extra` (the gateway's own request id and
 * `traceparent`).
 */
export function upstreamRequestHeaders(
  incoming: ClientHeaders,
  client: ClientView,
  extra: Record<string, string | undefined> = {},
): Record<string, string> {
  const connectionNamed = namedInConnection(clientHeader(incoming, 'connection'));
  const headers: Record<string, string> = {};
  for (const name of forwardedRequestHeaders) {
    const value = clientHeader(incoming, name);
    if (value !== undefined && !connectionNamed.has(name)) headers[name] = value;
  }
  if (client.address) headers['x-forwarded-for'] = client.address;
  headers['x-forwarded-proto'] = client.protocol;
  headers['x-forwarded-host'] = client.host;
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) headers[name] = value;
  return headers;
}

/** An answer's headers for the client: lower-case names, a repeated header as the list of its values. */
export type AnswerHeaders = Record<string, string | string[]>;

/**
 * The headers to hand back to the client from an upstream answer, with the legacy origin rewritten in
 * `Location`. A plain record: the `/service` read lane writes it to Node as it is, the app makes a `Headers`
 * of it (`webHeaders`).
 */
export function clientResponseHeaders(
  upstream: Record<string, string | string[] | undefined>,
  rewrite: { legacyOrigin: string; publicUrl: string },
): AnswerHeaders {
  const connection = upstream.connection;
  const connectionNamed = namedInConnection(Array.isArray(connection) ? connection.join(',') : connection);
  // No prototype: a backend's header may be called anything, `__proto__` included.
  const headers = Object.create(null) as AnswerHeaders;
  for (const name in upstream) {
    const value = upstream[name];
    if (value === undefined || droppedResponseHeaders.has(name) || connectionNamed.has(name)) continue;
    headers[name] =
      name === 'location' && typeof value === 'string'
        ? value.replace(rewrite.legacyOrigin, rewrite.publicUrl)
        : value;
  }
  return headers;
}

/** An answer's headers as a Web `Headers`, a repeated header appended once per value. */
export function webHeaders(answer: AnswerHeaders): Headers {
  const headers = new Headers();
  for (const name in answer) {
    const value = answer[name]!;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return headers;
}
