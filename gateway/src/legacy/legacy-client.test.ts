import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLegacyClient, type LegacyClientOptions } from './legacy-client.js';
import { LegacyResponseError, LegacyTimeoutError, LegacyUnavailableError } from './legacy-errors.js';
import { upstreamFailure } from './upstream-failures.js';
import { json, startStubBackend, type StubBackend } from './stub-backend.test-helpers.js';

let backend: StubBackend;
let tokenEndpoint: StubBackend;
beforeAll(async () => {
  backend = await startStubBackend();
  tokenEndpoint = await startStubBackend();
});
afterAll(async () => {
  await backend.close();
  await tokenEndpoint.close();
});
afterEach(() => {
  backend.received.length = 0;
  tokenEndpoint.received.length = 0;
  backend.answer((_request, response) => json(response, 200, []));
});

const clients: ReturnType<typeof createLegacyClient>[] = [];
/**
 * A client of the stub backend. Its timeouts are far above what an answer takes on a loaded machine, so a
 * call the backend answers never reads as a timeout; a test of the timeout itself passes a short one to a
 * client whose calls the backend never answers.
 */
function client(options: Partial<LegacyClientOptions> = {}) {
  const legacy = createLegacyClient({
    url: new URL(backend.url),
    connectTimeoutMs: 30_000,
    responseTimeoutMs: 30_000,
    ...options,
  });
  clients.push(legacy);
  return legacy;
}
afterAll(() => Promise.all(clients.map((legacy) => legacy.destroy())));

describe('upstream failures, mapped once', () => {
  it('a business error keeps the legacy status, error_key, description and context', async () => {
    backend.answer((_request, response) =>
      json(response, 400, {
        error: true,
        status: 400,
        error_key: 'V_INVALID_DATE',
        description: 'Not a date.',
        value: '2024-13-01',
      }),
    );
    const error = await client()
      .json({ method: 'GET', path: '/service/o/' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LegacyResponseError);
    expect(upstreamFailure(error)).toEqual({
      status: 400,
      errorKey: 'V_INVALID_DATE',
      code: 'BAD_USER_INPUT',
      description: 'Not a date.',
      context: { value: '2024-13-01' },
    });
  });

  it('a backend that sends no headers in time is a timeout: 504 E_UPSTREAM_TIMEOUT', async () => {
    // Never answers; the client's header timeout ends the call.
    backend.answer(() => undefined);
    const error = await client({ responseTimeoutMs: 200 })
      .json({ method: 'GET', path: '/service/o/' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LegacyTimeoutError);
    expect(upstreamFailure(error)).toMatchObject({
      status: 504,
      errorKey: 'E_UPSTREAM_TIMEOUT',
      code: 'UPSTREAM_TIMEOUT',
    });
  });

  it('the passthrough times out the same way', async () => {
    backend.answer(() => undefined);
    const error = await client({ responseTimeoutMs: 200 })
      .forward({
        method: 'GET',
        target: '/service/o/',
        headers: new Headers(),
        client: { protocol: 'http', host: 'gateway.example' },
        publicUrl: 'http://gateway.example',
      })
      .catch((caught: unknown) => caught);
    expect(upstreamFailure(error)).toMatchObject({ status: 504, errorKey: 'E_UPSTREAM_TIMEOUT' });
  });

  it('nothing listening is unavailable: 502 E_UPSTREAM_UNAVAILABLE, without the address', async () => {
    const error = await client({ url: new URL('http://127.0.0.1:1') })
      .json({ method: 'GET', path: '/service/o/' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LegacyUnavailableError);
    const failure = upstreamFailure(error);
    expect(failure).toMatchObject({
      status: 502,
      errorKey: 'E_UPSTREAM_UNAVAILABLE',
      code: 'UPSTREAM_UNAVAILABLE',
    });
    expect(JSON.stringify(failure)).not.toContain('127.0.0.1');
  });

  it('an answer that is not the legacy API is unavailable too', async () => {
    backend.answer((_request, response) => {
      response.writeHead(500, { 'content-type': 'text/html' });
      response.end('<h1>proxy error</h1>');
    });
    const error = await client()
      .json({ method: 'GET', path: '/service/o/' })
      .catch((caught: unknown) => caught);
    expect(upstreamFailure(error)?.errorKey).toBe('E_UPSTREAM_UNAVAILABLE');
  });
});

describe('a connection the backend closes before answering', () => {
  /** Closes the connection of the first request it gets, unanswered (a kept-alive socket the backend let go). */
  function dropFirstRequest() {
    let dropped = 0;
    backend.answer((_request, response) => {
      if (dropped === 0) {
        dropped += 1;
        response.socket?.destroy();
        return;
      }
      json(response, 200, [{ uuid: 'u1' }]);
    });
  }

  it('a read is sent once more and answers', async () => {
    dropFirstRequest();
    await expect(client().json({ method: 'GET', path: '/service/o/' })).resolves.toEqual([{ uuid: 'u1' }]);
    expect(backend.received).toHaveLength(2);
  });

  it('a passthrough read is sent once more too', async () => {
    dropFirstRequest();
    const answer = await client().forward({
      method: 'GET',
      target: '/service/o/',
      headers: new Headers(),
      client: { protocol: 'http', host: 'gateway.example' },
      publicUrl: 'http://gateway.example',
    });
    expect(answer.status).toBe(200);
    await answer.body.dump();
    expect(backend.received).toHaveLength(2);
  });

  it('a write is never sent twice: it fails as unavailable', async () => {
    dropFirstRequest();
    const error = await client()
      .json({ method: 'POST', path: '/service/ou/create', body: { name: 'x' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LegacyUnavailableError);
    expect(backend.received).toHaveLength(1);
  });
});

describe('backend authentication (LEGACY_CREDENTIALS)', () => {
  const caller = 'Bearer caller.token.value';
  const forwardRequest = {
    method: 'GET',
    target: '/service/o/',
    headers: new Headers({ authorization: caller }),
    client: { protocol: 'http', host: 'gateway.example' },
    publicUrl: 'http://gateway.example',
  };

  it('relay (the default) sends the caller’s token on every call, passthrough included', async () => {
    const legacy = client();
    await legacy.json({ method: 'GET', path: '/service/o/', authorization: caller });
    await (await legacy.forward(forwardRequest)).body.dump();
    expect(backend.received.map((request) => request.headers.authorization)).toEqual([caller, caller]);
  });

  it('none sends no credential, not even the caller’s', async () => {
    const legacy = client({ auth: { mode: 'none' } });
    await legacy.json({ method: 'GET', path: '/service/o/', authorization: caller });
    await (await legacy.forward(forwardRequest)).body.dump();
    expect(backend.received.map((request) => request.headers.authorization)).toEqual([undefined, undefined]);
  });

  it('client-credentials sends the gateway’s own token, fetched once for calls that wait together', async () => {
    tokenEndpoint.answer((_request, response) =>
      json(response, 200, { access_token: 'gateway.own.token', expires_in: 300, token_type: 'Bearer' }),
    );
    const legacy = client({
      auth: {
        mode: 'client-credentials',
        tokenUrl: new URL(`${tokenEndpoint.url}/token`),
        clientId: 'gateway',
        clientSecret: 'very-secret-value',
      },
    });
    await Promise.all(
      Array.from({ length: 5 }, () =>
        legacy.json({ method: 'GET', path: '/service/o/', authorization: caller }),
      ),
    );
    await (await legacy.forward(forwardRequest)).body.dump();
    expect(tokenEndpoint.received).toHaveLength(1);
    expect(Object.fromEntries(new URLSearchParams(tokenEndpoint.received[0]!.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'gateway',
      client_secret: 'very-secret-value',
    });
    expect(new Set(backend.received.map((request) => request.headers.authorization))).toEqual(
      new Set(['Bearer gateway.own.token']),
    );
  });

  it('client-credentials that cannot get a token fails as unavailable, naming neither secret nor token', async () => {
    tokenEndpoint.answer((request, response) =>
      json(response, 401, { error: 'invalid_client', echoed: request.body }),
    );
    const legacy = client({
      auth: {
        mode: 'client-credentials',
        tokenUrl: new URL(`${tokenEndpoint.url}/token`),
        clientId: 'gateway',
        clientSecret: 'very-secret-value',
      },
    });
    const error = await legacy
      .json({ method: 'GET', path: '/service/o/', authorization: caller })
      .catch((caught: unknown) => caught);
    const failure = upstreamFailure(error);
    expect(failure).toMatchObject({ status: 502, errorKey: 'E_UPSTREAM_UNAVAILABLE' });
    const everything = `${String(error)} ${(error as Error).message} ${JSON.stringify(failure)}`;
    expect(everything).not.toContain('very-secret-value');
    expect(everything).not.toContain('caller.token.value');
    expect(backend.received).toHaveLength(0);
  });
});

describe('what the backend learns of the gateway request', () => {
  it('json() sends the request id as X-Request-Id, and no traceparent while tracing is off', async () => {
    await client({ auth: { mode: 'none' } }).json({ method: 'GET', path: '/service/o/', requestId: 'req-7' });
    expect(backend.received).toHaveLength(1);
    expect(backend.received[0]!.headers['x-request-id']).toBe('req-7');
    expect(backend.received[0]!.headers).not.toHaveProperty('traceparent');
  });
});

describe('json() reads the answer whole', () => {
  it('decodes a body that arrives in several chunks, a character split between two of them', async () => {
    const name = 'Ærø Kommune — æøå';
    const bytes = Buffer.from(JSON.stringify([{ uuid: 'u1', name }]));
    const split = bytes.indexOf(Buffer.from('Æ')) + 1; // inside the two bytes of Æ
    backend.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(bytes.subarray(0, split));
      setImmediate(() => response.end(bytes.subarray(split)));
    });
    await expect(client().json({ method: 'GET', path: '/service/o/' })).resolves.toEqual([
      { uuid: 'u1', name },
    ]);
  });

  it('ends a call whose signal aborts while the backend is still answering, and makes no second call', async () => {
    let answered!: () => void;
    const arrived = new Promise<void>((resolve) => (answered = resolve));
    backend.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      answered();
    });
    const controller = new AbortController();
    const call = client()
      .json({ method: 'GET', path: '/service/o/', signal: controller.signal })
      .catch((caught: unknown) => caught);
    await arrived;
    controller.abort();
    expect(upstreamFailure(await call)?.errorKey).toBe('E_UPSTREAM_UNAVAILABLE');
    expect(backend.received).toHaveLength(1);
  });

  it('ends every call under one signal when it aborts, with one listener on the signal however many calls', async () => {
    let arrivals = 0;
    let allArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (allArrived = resolve));
    backend.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      if (++arrivals === 20) allArrived();
    });
    const controller = new AbortController();
    let listeners = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = (...args: Parameters<AbortSignal['addEventListener']>) => {
      listeners += 1;
      add(...args);
    };
    const legacy = client();
    const calls = Array.from({ length: 20 }, (_, index) =>
      legacy
        .json({ method: 'GET', path: `/service/ou/${index}/`, signal: controller.signal })
        .catch((caught: unknown) => caught),
    );
    await arrived;
    controller.abort();
    for (const error of await Promise.all(calls)) {
      expect(upstreamFailure(error)?.errorKey).toBe('E_UPSTREAM_UNAVAILABLE');
    }
    // An EventTarget checks each new listener against all it holds: one per call would be quadratic.
    expect(listeners).toBe(1);
  });

  it('does not send a call whose signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await client()
      .json({ method: 'GET', path: '/service/o/', signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(upstreamFailure(error)?.errorKey).toBe('E_UPSTREAM_UNAVAILABLE');
    expect(backend.received).toHaveLength(0);
  });
});

describe('the calls json() reports to the metrics', () => {
  it('reports each call made once, by method and status class, timeouts and broken calls apart', async () => {
    const observed: { method: string; statusClass: string }[] = [];
    const observeCall = ({ method, statusClass }: { method: string; statusClass: string }) =>
      observed.push({ method, statusClass });
    const legacy = client({ observeCall });
    await legacy.json({ method: 'GET', path: '/service/o/' });
    backend.answer((_request, response) =>
      json(response, 404, {
        error: true,
        status: 404,
        error_key: 'E_NOT_FOUND',
        description: 'No such unit.',
      }),
    );
    await legacy.json({ method: 'POST', path: '/service/details/create', body: {} }).catch(() => undefined);
    backend.answer(() => undefined);
    // Only the call that never gets an answer has a short timeout: the answered ones above cannot time out.
    await client({ observeCall, responseTimeoutMs: 300 })
      .json({ method: 'GET', path: '/service/o/' })
      .catch(() => undefined);
    await client({ observeCall, url: new URL('http://127.0.0.1:1') })
      .json({ method: 'GET', path: '/service/o/' })
      .catch(() => undefined);
    expect(observed).toEqual([
      { method: 'GET', statusClass: '2xx' },
      { method: 'POST', statusClass: '4xx' },
      { method: 'GET', statusClass: 'timeout' },
      // Nothing listening: one call that failed (only a connection that broke mid-way is tried again).
      { method: 'GET', statusClass: 'error' },
    ]);
  });

  it('reports nothing for a call never made: no backend credential could be had', async () => {
    tokenEndpoint.answer((_request, response) => json(response, 401, { error: 'invalid_client' }));
    const observed: unknown[] = [];
    await client({
      observeCall: (call) => observed.push(call),
      auth: {
        mode: 'client-credentials',
        tokenUrl: new URL(`${tokenEndpoint.url}/token`),
        clientId: 'gateway',
        clientSecret: 'secret',
      },
    })
      .json({ method: 'GET', path: '/service/o/', authorization: 'Bearer caller' })
      .catch(() => undefined);
    expect(observed).toEqual([]);
  });
});

describe('the passthrough calls forward() reports to the metrics', () => {
  const forwardRequest = {
    method: 'GET',
    target: '/service/o/',
    headers: new Headers(),
    client: { protocol: 'http', host: 'gateway.example' },
    publicUrl: 'http://gateway.example',
  };

  it('reports a read once its body has been read, with the answer’s status class', async () => {
    const observed: string[] = [];
    const legacy = client({ observeCall: ({ statusClass }) => observed.push(statusClass) });
    const answer = await legacy.forward(forwardRequest);
    // Not before the body is read: the call is not over while the answer still streams.
    expect(observed).toEqual([]);
    await answer.body.arrayBuffer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(observed).toEqual(['2xx']);
  });

  it('reports a call that got no answer in time as a timeout, and one cut mid-answer as an error', async () => {
    const observed: string[] = [];
    const observeCall = ({ statusClass }: { statusClass: string }) => observed.push(statusClass);
    backend.answer(() => undefined);
    await client({ observeCall, responseTimeoutMs: 200 })
      .forward(forwardRequest)
      .catch(() => undefined);
    // The cut answer's headers come at once; with the default timeout they cannot be late for a slow machine.
    backend.answer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[');
      setImmediate(() => response.socket?.destroy());
    });
    const answer = await client({ observeCall }).forward(forwardRequest);
    await answer.body.arrayBuffer().catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(observed).toEqual(['timeout', 'error']);
  });
});
