import { ComparisonError } from './comparison-error.js';
import type { GraphQLRequestBody, ServiceResponse } from './subjects.js';

/** How a comparison reaches both interfaces: `/service` reads and one `/graphql/{version}` request. */
export interface ComparisonTransport {
  getService(path: string): Promise<ServiceResponse>;
  /** Asks for the upstream trace (`X-Upstream-Trace: 1`), so the report shows the legacy calls GraphQL made. */
  postGraphQL(version: string, body: GraphQLRequestBody): Promise<ServiceResponse>;
}

export interface GatewayTransportOptions {
  /** The gateway's address as the client sees it, e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** The `Authorization` header value sent with every request (`Bearer …`). */
  authorization: string;
  /** Sends a request: `fetch` for the CLI, the app's own `fetch` for the workbench (in-process). */
  fetch?: (request: Request) => Response | Promise<Response>;
  /** Longest time one request may take. */
  timeoutMs?: number;
  /**
   * Names the tool in `X-Gateway-Tool`, so the gateway counts these reads as the comparison tools' and not as
   * the token's client's usage (the CLI; the workbench's in-process reads are marked without a header).
   */
  tool?: string;
}

async function readBody(response: Response): Promise<ServiceResponse> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the report shows the text as it came.
  }
  return { status: response.status, bytes: bytes.byteLength, body };
}

/**
 * Both sides through the gateway with the user's token: the legacy reads go through the `/service`
 * passthrough, so the legacy service stays internal and the reads cost what an integration's reads cost.
 *
 * @example
 * const transport = gatewayTransport({ baseUrl: 'http://localhost:8080', authorization: `Bearer ${token}` });
 */
export function gatewayTransport(options: GatewayTransportOptions): ComparisonTransport {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;

  const exchange = async (path: string, init: RequestInit): Promise<ServiceResponse> => {
    const request = new Request(`${baseUrl}${path}`, {
      ...init,
      headers: {
        accept: 'application/json',
        authorization: options.authorization,
        ...(options.tool === undefined ? {} : { 'x-gateway-tool': options.tool }),
        ...init.headers,
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
    try {
      return await readBody(await send(request));
    } catch (error) {
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new ComparisonError('unreachable', `The gateway at ${baseUrl} did not answer ${path} in time.`);
      }
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new ComparisonError('unreachable', `Cannot reach the gateway at ${baseUrl} (${reason}).`);
    }
  };

  return {
    getService: (path) => exchange(path, { method: 'GET' }),
    postGraphQL: (version, body) =>
      exchange(`/graphql/${encodeURIComponent(version)}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/graphql-response+json, application/json',
          'x-upstream-trace': '1',
        },
        body: JSON.stringify(body),
      }),
  };
}
