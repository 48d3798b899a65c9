import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { pipeline } from 'node:stream';
import { authenticateBearer } from '../auth/bearer-auth.js';
import type { Principal, TokenVerifier } from '../auth/token-verifier.js';
import { GatewayError, unexpectedError } from '../errors/gateway-error.js';
import { legacyErrorBody } from '../errors/legacy-error-body.js';
import { upstreamError } from '../legacy/upstream-error.js';
import { ConnectionGone } from '../http/node-bindings.js';
import type { ServiceCpr } from '../cpr/service-cpr.js';
import type { AnswerHeaders } from '../legacy/forward-headers.js';
import type { LegacyClient } from '../legacy/legacy-client.js';
import { finishRequest, comparisonToolHeader } from '../observability/request-observer.js';
import type { Observability } from '../observability/observability.js';
import { serviceAnswer } from './service-answer.js';
import { isPlainHost, isPlainServiceTarget, requestIdOf } from './plain-request.js';

export interface ServiceReadLaneOptions {
  legacy: LegacyClient;
  verifier: TokenVerifier;
  realm: string;
  /** The gateway's public address: a legacy `Location` is rewritten to it. */
  publicUrl: string;
  observability: Observability;
  /** The headers every answer carries (`securityHeaders`), made once at start. */
  securityHeaders: readonly (readonly [string, string])[];
  /** Logs and, by policy, withholds the CPR numbers of the reads that can carry them. */
  cpr?: ServiceCpr;
}

export interface ServiceReadLane {
  /**
   * Answers a plain `/service` read (GET or HEAD, a target and `Host` that URL parsing would not change, no
   * `Origin`) and returns true; returns false, having done nothing, for anything else.
   */
  take(req: IncomingMessage, res: ServerResponse): boolean;
  /** How many reads this lane answered: tests prove with it that the lane was taken. */
  readonly served: number;
}

/** Node's `rawHeaders` as lower-case names, repeated headers joined by `, ` as a Web `Headers` joins them. */
function joinedHeaders(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    const value = raw[index + 1]!;
    const seen = headers[name];
    headers[name] = seen === undefined ? value : `${seen}, ${value}`;
  }
  return headers;
}

/**
 * An answer's headers as the app's answer reaches Node: a `Headers` iterates its names sorted and joins a
 * repeated header with `, `, and @hono/node-server then adds `set-cookie` as a list and a default
 * `content-type` last.
 */
function outgoingHeaders(headers: AnswerHeaders): Record<string, string | string[]> {
  const outgoing = Object.create(null) as Record<string, string | string[]>;
  for (const name of Object.keys(headers).sort()) {
    if (name === 'set-cookie') continue;
    const value = headers[name]!;
    outgoing[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const cookies = headers['set-cookie'];
  if (cookies !== undefined) outgoing['set-cookie'] = Array.isArray(cookies) ? cookies : [cookies];
  outgoing['content-type'] ??= 'text/plain; charset=UTF-8';
  return outgoing;
}

/** One read on the lane: what it learnt for the access log and metrics (the principal once the token passed). */
interface ReadOutcome {
  status: number;
  principal?: Principal;
}

/**
 * The `/service` read path on Node's own request and response: the same token check, passthrough, headers,
 * error bodies, access log, metrics and usage attribution as the Hono app gives a read, without a Hono
 * context or a Web `Request`/`Response` pair per call. Only reads without anything the app would treat
 * specially take it (no CORS, tracing, shadow sampling or deprecated endpoints: the app is then built without
 * the lane); everything else goes to the app unchanged.
 *
 * @example
 * const lane = serviceReadLane({ legacy, verifier, realm, publicUrl, observability, securityHeaders });
 * createServer((req, res) => lane.take(req, res) || app(req, res));
 */
export function serviceReadLane(options: ServiceReadLaneOptions): ServiceReadLane {
  const { observability, legacy } = options;
  const { metrics } = observability;
  let served = 0;

  const securityHeaders = options.securityHeaders.map(
    ([name, value]) => [name.toLowerCase(), value] as const,
  );

  /** Every answer's last steps in the app's order: CORS's `Vary`, then the security headers. */
  function finalHeaders(headers: AnswerHeaders): Record<string, string | string[]> {
    const vary = headers.vary;
    headers.vary =
      vary === undefined ? 'Origin' : Array.isArray(vary) ? [...vary, 'Origin'] : `${vary}, Origin`;
    for (const [name, value] of securityHeaders) headers[name] = value;
    delete headers['x-powered-by'];
    return outgoingHeaders(headers);
  }

  function writeError(res: ServerResponse, error: GatewayError, requestId: string, head: boolean): void {
    const headers = Object.create(null) as AnswerHeaders;
    headers['x-request-id'] = requestId;
    for (const name in error.headers) headers[name.toLowerCase()] = error.headers[name]!;
    headers['content-type'] = 'application/json';
    const outgoing = finalHeaders(headers);
    if (head) {
      res.writeHead(error.status, outgoing).end();
      return;
    }
    const body = JSON.stringify(legacyErrorBody(error));
    outgoing['Content-Length'] = String(Buffer.byteLength(body));
    res.writeHead(error.status, outgoing).end(body);
  }

  async function read(
    req: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string>,
    requestId: string,
    host: string,
    outcome: ReadOutcome,
  ): Promise<void> {
    const method = req.method!;
    const principal = await authenticateBearer(headers.authorization, options);
    outcome.principal = principal;
    const cprEndpoint = options.cpr?.endpointOf(method, req.url!);
    if (cprEndpoint !== undefined) {
      const refusal = options.cpr!.refusal(cprEndpoint, principal);
      if (refusal) throw refusal;
    }
    const gone = new ConnectionGone();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    let upstream;
    try {
      upstream = await legacy.forward({
        method,
        target: req.url!,
        headers,
        signal: gone,
        client: {
          address: req.socket.remoteAddress,
          protocol: (req.socket as TLSSocket).encrypted ? 'https' : 'http',
          host,
        },
        requestId,
        publicUrl: options.publicUrl,
        identityEncoding: cprEndpoint !== undefined,
      });
    } catch (error) {
      throw upstreamError(error) ?? error;
    }
    const answer = await serviceAnswer(upstream, {
      method: method,
      reader: { principal, requestId, clientRequestId: headers['x-request-id'], target: req.url! },
      cpr: options.cpr,
      cprEndpoint,
    });
    outcome.status = answer.status;
    // The app's token step marks every answer it passes as not to be stored.
    answer.headers['cache-control'] = 'no-store';
    res.writeHead(answer.status, finalHeaders(answer.headers));
    if (answer.body === undefined || Buffer.isBuffer(answer.body)) res.end(answer.body);
    else pipeline(answer.body, res, () => {});
  }

  async function answer(
    req: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string>,
    host: string,
  ): Promise<void> {
    const started = performance.now();
    const requestId = requestIdOf(headers['x-request-id']);
    metrics.httpRequestsInFlight.inc();
    const outcome: ReadOutcome = { status: 0 };
    try {
      await read(req, res, headers, requestId, host, outcome);
    } catch (error) {
      let failure: GatewayError;
      if (error instanceof GatewayError) failure = error;
      else {
        observability.logger.child({ requestId }).error({ err: error }, 'unexpected error');
        failure = unexpectedError();
      }
      outcome.status = failure.status;
      writeError(res, failure, requestId, req.method === 'HEAD');
    } finally {
      metrics.httpRequestsInFlight.dec();
    }
    const url = req.url!;
    const queryStart = url.indexOf('?');
    finishRequest(observability, {
      started,
      requestId,
      method: req.method!,
      path: queryStart === -1 ? url : url.slice(0, queryStart),
      query: queryStart === -1 ? '' : url.slice(queryStart + 1),
      route: '/service/*',
      status: outcome.status,
      principal: outcome.principal,
      toolRequest: headers[comparisonToolHeader] !== undefined,
      // The gateway's own requests go to the app, never to Node's listener.
      internal: false,
      operation: undefined,
    });
  }

  return {
    take(req, res) {
      const method = req.method;
      if (method !== 'GET' && method !== 'HEAD') return false;
      const url = req.url;
      if (url === undefined || !isPlainServiceTarget(url)) return false;
      const headers = joinedHeaders(req.rawHeaders);
      // A repeated Host is joined here and so never plain: the app keeps Node's first one, the lane none.
      const host = headers.host;
      if (host === undefined || !isPlainHost(host) || headers.origin !== undefined) return false;
      served += 1;
      answer(req, res, headers, host).catch((error: unknown) => {
        // Only the request's finish (log, metrics) can fail here, after the answer: log it, never crash.
        observability.logger.error({ err: error }, 'unexpected error');
      });
      return true;
    },
    get served() {
      return served;
    },
  };
}
