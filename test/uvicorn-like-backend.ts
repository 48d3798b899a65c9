import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A backend stand-in that reads requests as OS2mo 2.x does on uvicorn and Starlette, in front of the
 * legacy stand-in (which reads them as the gateway does): the red team's backend of issue 35, written in
 * Node with Python's rules.
 *
 * - The path is percent-decoded once before routing: uvicorn's HTTP protocols hand Starlette
 *   `urllib.parse.unquote(raw_path)`, so `/service/e%2Fcpr_lookup/` is routed as `/service/e/cpr_lookup/`.
 * - A body is read as `json.loads(bytes)` reads it (CPython `json/__init__.py`): its encoding detected from
 *   the first bytes (`detect_encoding`: UTF-32 and UTF-16 by BOM or NUL pattern, UTF-8 with or without a
 *   BOM), and `NaN`, `Infinity` and `-Infinity` taken as numbers (`json/scanner.py`).
 * - `ou/create` creates the records of its `details` (and our contract's `addresses`) with the unit, each
 *   with the UUID it gives, as OS2mo 2.4.0 does (`service/orgunit.py` 150–157). OS2mo sets each record's
 *   `org_unit` to the new unit (`_inject_org_units`); this stand-in keeps one a record names, the case in
 *   which an unjudged record does the most harm, and fills in the new unit otherwise.
 *
 * What it decoded goes on to the legacy stand-in as plain JSON (a number Python read as NaN or Infinity
 * becomes `null`, a member OS2mo would ignore) on a path whose segments are the decoded ones.
 */

export interface UvicornLikeRequest {
  method: string;
  /** The request target as it arrived (path and query, undecoded). */
  target: string;
  /** The path Starlette routes: the raw path percent-decoded once. */
  path: string;
  /** The body as `json.loads` read it; undefined when there was none. */
  json?: unknown;
}

export interface UvicornLikeBackend {
  /** `http://127.0.0.1:{port}`: give it to the gateway as `LEGACY_URL`. */
  url: string;
  /** Every request it received, in arrival order. */
  readonly received: UvicornLikeRequest[];
  close(): Promise<void>;
}

/** `urllib.parse.unquote`: each run of `%XX` as UTF-8 bytes, undecodable ones replaced; a stray `%` kept. */
export function unquote(raw: string): string {
  return raw.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) =>
    Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'),
  );
}

/** `json.detect_encoding`, CPython 3.x. */
export function detectEncoding(bytes: Uint8Array): string {
  const starts = (...prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
  if (starts(0, 0, 0xfe, 0xff) || starts(0xff, 0xfe, 0, 0)) return 'utf-32';
  if (starts(0xfe, 0xff) || starts(0xff, 0xfe)) return 'utf-16';
  if (starts(0xef, 0xbb, 0xbf)) return 'utf-8-sig';
  if (bytes.length >= 4) {
    if (!bytes[0]) return bytes[1] ? 'utf-16-be' : 'utf-32-be';
    if (!bytes[1]) return bytes[2] || bytes[3] ? 'utf-16-le' : 'utf-32-le';
  } else if (bytes.length === 2) {
    if (!bytes[0]) return 'utf-16-be';
    if (!bytes[1]) return 'utf-16-le';
  }
  return 'utf-8';
}

function utf32(bytes: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let text = '';
  for (let offset = 0; offset + 4 <= bytes.length; offset += 4) {
    text += String.fromCodePoint(view.getUint32(offset, littleEndian));
  }
  return text;
}

/** The bytes as text in the encoding `detectEncoding` named, a BOM dropped as Python's codecs drop it. */
function decode(bytes: Uint8Array, encoding: string): string {
  switch (encoding) {
    case 'utf-32':
      return utf32(bytes.subarray(4), bytes[0] === 0xff);
    case 'utf-32-be':
    case 'utf-32-le':
      return utf32(bytes, encoding.endsWith('le'));
    case 'utf-16':
      return new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be').decode(bytes.subarray(2));
    case 'utf-16-be':
    case 'utf-16-le':
      return new TextDecoder(encoding.replace('-be', 'be').replace('-le', 'le')).decode(bytes);
    default:
      // TextDecoder drops a leading UTF-8 BOM, as `utf-8-sig` does.
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  }
}

const pythonFloat = '\u0000python-float:';

/** `json.loads(bytes)`: throws where Python raises. */
export function pythonJsonLoads(bytes: Uint8Array): unknown {
  const text = decode(bytes, detectEncoding(bytes));
  // NaN and ±Infinity outside strings are numbers to Python's scanner; strings are left as they are.
  const marked = text.replace(/("(?:[^"\\]|\\.)*")|-?Infinity|NaN/g, (match, string?: string) =>
    string === undefined ? JSON.stringify(`${pythonFloat}${match}`) : string,
  );
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(pythonFloat)
      ? Number(value.slice(pythonFloat.length))
      : value,
  );
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readBody(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => resolve(Buffer.concat(chunks)));
    incoming.once('error', reject);
  });
}

interface InnerAnswer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Starts the stand-in on a loopback port the OS chooses, passing what it decoded to `target` (the legacy
 * stand-in, which checks the caller's token).
 *
 * @example
 * const backend = await startUvicornLikeBackend(legacy.url);
 * // … start the gateway with LEGACY_URL = backend.url …
 */
export async function startUvicornLikeBackend(target: string): Promise<UvicornLikeBackend> {
  const received: UvicornLikeRequest[] = [];
  const sockets = new Set<Socket>();

  const inner = async (
    method: string,
    path: string,
    query: string,
    headers: IncomingMessage['headers'],
    json: unknown,
  ): Promise<InnerAnswer> => {
    const forwarded = new Headers();
    for (const name of ['authorization', 'accept', 'x-request-id']) {
      const value = headers[name];
      if (typeof value === 'string') forwarded.set(name, value);
    }
    // The decoded path, its segments encoded again so the legacy stand-in routes the same segments.
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    const withBody = json !== undefined;
    if (withBody) forwarded.set('content-type', 'application/json');
    const answer = await fetch(`${target}${encoded}${query}`, {
      method,
      headers: forwarded,
      ...(withBody ? { body: JSON.stringify(json) } : {}),
    });
    return {
      status: answer.status,
      contentType: answer.headers.get('content-type') ?? 'application/json',
      text: await answer.text(),
    };
  };

  /** `ou/create` with its records, one call to the legacy stand-in each, as OS2mo submits them. */
  const createUnit = async (
    query: string,
    headers: IncomingMessage['headers'],
    body: Record<string, unknown>,
  ): Promise<InnerAnswer> => {
    const { details, addresses, ...unit } = body;
    const created = await inner('POST', '/service/ou/create', query, headers, unit);
    if (created.status !== 201) return created;
    const uuid = JSON.parse(created.text) as string;
    const lists: [unknown, string | undefined][] = [
      [details, undefined],
      [addresses, 'address'],
    ];
    for (const [list, type] of lists) {
      for (const record of Array.isArray(list) ? list.filter(isObject) : []) {
        const detail = await inner('POST', '/service/details/create', '', headers, {
          ...(type === undefined ? {} : { type }),
          ...record,
          org_unit: record.org_unit ?? { uuid },
        });
        if (detail.status >= 300) return detail;
      }
    }
    return created;
  };

  const answer = async (incoming: IncomingMessage, response: ServerResponse) => {
    const method = incoming.method ?? 'GET';
    const targetPath = incoming.url ?? '/';
    const queryStart = targetPath.indexOf('?');
    const rawPath = queryStart === -1 ? targetPath : targetPath.slice(0, queryStart);
    const query = queryStart === -1 ? '' : targetPath.slice(queryStart);
    const path = unquote(rawPath);
    const bytes = await readBody(incoming);
    const request: UvicornLikeRequest = { method, target: targetPath, path };
    received.push(request);
    const refuse = (status: number, errorKey: string) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: true, status, error_key: errorKey }));
    };
    if (bytes.length > 0) {
      try {
        request.json = pythonJsonLoads(bytes);
      } catch {
        refuse(400, 'E_INVALID_INPUT');
        return;
      }
    }
    const routed = path.replace(/\/+$/, '');
    const result =
      method === 'POST' && routed === '/service/ou/create' && isObject(request.json)
        ? await createUnit(query, incoming.headers, request.json)
        : await inner(method, path, query, incoming.headers, request.json);
    response.writeHead(result.status, { 'content-type': result.contentType });
    response.end(result.text);
  };

  const server = createServer((incoming, response) => {
    answer(incoming, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: true, status: 500, error_key: 'E_UNKNOWN' }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
