import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { json, startStubBackend, type StubRequest } from '../gateway/src/legacy/stub-backend.test-helpers.js';
import { startLegacyService, type LegacyServer } from '../legacy-service/src/server.js';

export interface Os2moLikeBackend {
  /** `http://127.0.0.1:{port}`: give it to the gateway as `LEGACY_URL`. */
  url: string;
  /** Every request the backend received, as it arrived (headers and body included). */
  readonly received: StubRequest[];
  /** The optional members answers have gone without so far, e.g. `person.validity`: what a test exercised. */
  readonly omitted: ReadonlySet<string>;
  close(): Promise<void>;
}

export interface Os2moLikeOptions {
  /** The realm whose tokens the backend accepts: the issuer tokens carry and where its keys are. */
  issuer: string;
  jwksUrl: string;
}

/**
 * A backend on a loopback port that behaves as OS2mo 2.4.0 does where the gateway can tell: `GET /health`
 * redirects (to `/health/`), every `/service` call without a valid bearer token is refused (`401
 * "Not authenticated"`), and records come in OS2mo's shapes with the members the contract marks optional
 * left out: a person has no `validity`, an IT system listing has no `validity`, a unit has no
 * `org_unit_level`, and one class (the first one asked for by `/service/c/{uuid}/`, and the first of every facet
 * listing) has no `facet`, even with `?facet=1`. The data and the token check
 * are the stand-in's (with its token check on, trusting `issuer`), behind this layer.
 *
 * @example
 * const backend = await startOs2moLikeBackend({ issuer: idp.issuer, jwksUrl: idp.jwksUri });
 * // … start the gateway with LEGACY_URL = backend.url …
 */
export async function startOs2moLikeBackend(options: Os2moLikeOptions): Promise<Os2moLikeBackend> {
  const dataDir = await mkdtemp(join(tmpdir(), 'os2mo-like-'));
  let records: LegacyServer | undefined;
  try {
    records = await startLegacyService({
      dataDir,
      auth: {
        enabled: true,
        issuer: options.issuer,
        jwksUrl: new URL(options.jwksUrl),
        clockToleranceSeconds: 5,
        jwksCooldownMs: 0,
      },
    });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const inner = records;
  const front = await startStubBackend();
  const omitted = new Set<string>();
  const bareClass: { uuid?: string } = {};

  front.answer((request, response) => {
    if (request.url === '/health') {
      response.writeHead(307, { location: '/health/' });
      response.end();
      return;
    }
    if (!request.url.startsWith('/service/')) {
      json(response, 404, { detail: 'Not Found' });
      return;
    }
    void (async () => {
      const headers = new Headers();
      for (const name of ['authorization', 'content-type', 'accept']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      const answer = await fetch(`${inner.url}${request.url}`, {
        method: request.method,
        headers,
        ...(request.method === 'GET' || request.method === 'HEAD' ? {} : { body: request.body }),
      });
      const text = await answer.text();
      const isJson = (answer.headers.get('content-type') ?? '').includes('json') && text !== '';
      const body: unknown = isJson ? JSON.parse(text) : text;
      if (!isJson) {
        response.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'text/plain',
        });
        response.end(text);
        return;
      }
      json(
        response,
        answer.status,
        answer.ok ? leaveOutOptional(request.url, body, omitted, bareClass) : body,
      );
    })().catch(() => json(response, 500, { error: true, status: 500, error_key: 'E_UNKNOWN' }));
  });

  return {
    url: front.url,
    received: front.received,
    omitted,
    close: async () => {
      await front.close();
      await inner.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** OS2mo's answer for `url`: the stand-in's, with the optional members named above left out. */
function leaveOutOptional(
  url: string,
  body: unknown,
  omitted: Set<string>,
  bareClass: { uuid?: string },
): unknown {
  const path = url.split('?')[0]!;
  // Whether the stand-in sent the member or not, the answer has none.
  const drop = (record: Json, key: string, what: string) => {
    delete record[key];
    omitted.add(what);
  };
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (!isObject(value)) return;
    if ('givenname' in value && 'surname' in value) drop(value, 'validity', 'person.validity');
    if ('org_unit_type' in value && 'name' in value) drop(value, 'org_unit_level', 'unit.org_unit_level');
    Object.values(value).forEach(walk);
  };
  walk(body);
  if (/^\/service\/o\/[^/]+\/it\/$/.test(path) && Array.isArray(body)) {
    for (const system of body) if (isObject(system)) drop(system, 'validity', 'itsystem.validity');
  }
  if (/^\/service\/(o\/[^/]+\/)?f\/[^/]+\/$/.test(path) && isObject(body)) {
    const data = body['data'];
    const items = isObject(data) ? data['items'] : undefined;
    if (Array.isArray(items) && isObject(items[0])) drop(items[0], 'facet', 'class.facet');
  }
  const classUuid = /^\/service\/c\/([^/]+)\/$/.exec(path)?.[1];
  if (classUuid !== undefined && isObject(body)) {
    bareClass.uuid ??= classUuid;
    if (bareClass.uuid === classUuid) drop(body, 'facet', 'class.facet');
  }
  return body;
}
