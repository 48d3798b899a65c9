import { clientToken } from '../idp-tokens.js';
import type { TestStack } from '../stack.js';

/**
 * The real 2.x-era clients of `/service`, as they reach it: Python `requests` against `{mora.base}/service/`,
 * with a bearer token from the realm's client-credentials grant. The clients' tests in this folder drive the
 * gateway through this, so each request has the URL, query and body the client would send.
 *
 * DIPEX (OS2mo/os2mo-data-import-and-export at 573b24ca) takes its header from
 * `ra_utils.headers.TokenSettings().get_headers()`: a client-credentials token of its own Keycloak client,
 * sent as `Authorization: Bearer …`. Here that client is the realm's back-end integration client.
 */
export function integrationToken(stack: Pick<TestStack, 'idp'>): Promise<string> {
  return clientToken(stack.idp.issuer, 'integration');
}

/** A query value as `requests` encodes it: `None` drops the key, `True` is `True`, a list repeats the key. */
export type RequestsParam = string | number | boolean | null | undefined | readonly string[];

/**
 * The URL `requests.get(url, params=…)` sends: the params are appended to a query the URL already has (with
 * `&`), in their order, and a `None` value is left out.
 */
export function requestsUrl(url: string, params: Record<string, RequestsParam> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) query.append(key, item);
    else query.append(key, typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value));
  }
  const encoded = query.toString();
  if (encoded === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${encoded}`;
}

export interface ServiceResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads the keys its client reads
  json: any;
  text: string;
}

/** One client's session: `GET` and `POST` under `{gateway}/service/`, as the client's own helper builds them. */
export interface ServiceSession {
  get(path: string, params?: Record<string, RequestsParam>): Promise<ServiceResponse>;
  /** `requests.post(url, params=…, json=payload)`. */
  post(path: string, payload: unknown, params?: Record<string, RequestsParam>): Promise<ServiceResponse>;
  /** Every path (with query) this session sent, in order: what a test says the client asked. */
  sent: string[];
}

export function serviceSession(
  stack: Pick<TestStack, 'gatewayUrl'>,
  headers: Record<string, string>,
): ServiceSession {
  const sent: string[] = [];
  const call = async (
    method: string,
    path: string,
    params: Record<string, RequestsParam>,
    payload?: unknown,
  ) => {
    const url = requestsUrl(`${stack.gatewayUrl}/service/${path}`, params);
    sent.push(url.slice(stack.gatewayUrl.length));
    const response = await fetch(url, {
      method,
      headers: {
        // requests' own headers; DIPEX's os2sync session sets this user agent (os2sync_export/os2mo.py:35-37).
        'user-agent': 'os2mo-data-import-and-export',
        accept: '*/*',
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: payload === undefined ? undefined : JSON.stringify(payload),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text };
  };
  return {
    get: (path, params = {}) => call('GET', path, params),
    post: (path, payload, params = {}) => call('POST', path, params, payload),
    sent,
  };
}

/** `ra_utils.headers.TokenSettings().get_headers()` with a token: the header every DIPEX client sends. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
