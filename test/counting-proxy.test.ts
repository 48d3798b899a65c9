import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCountingProxy } from './counting-proxy.js';

/**
 * The counting proxy reads a peer's dependent rounds from the waves it lets calls through in. Its quiet time
 * must not end a wave while this process is stalled: the second call of a round, sent on a new connection
 * while the proxy could not run, belongs to the first call's wave.
 */

const quietMs = 200;
let target: Server;
let targetUrl: string;
beforeAll(async () => {
  target = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('[]');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => target.close(() => resolve())));

/**
 * A peer on a thread of its own (it runs while this one is stalled): told to, it sends `path` on a new
 * connection and sets `sent` once the request has been handed to the socket.
 */
function peer(url: string, path: string, sent: Int32Array) {
  return new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const { request } = require('node:http');
     parentPort.once('message', () => {
       const outgoing = request(workerData.url + workerData.path, { agent: false }, (response) => {
         response.resume();
         response.on('end', () => parentPort.postMessage('answered'));
       });
       outgoing.on('finish', () => {
         Atomics.store(workerData.sent, 0, 1);
         Atomics.notify(workerData.sent, 0);
       });
       outgoing.end();
     });`,
    { eval: true, workerData: { url, path, sent } },
  );
}

describe('the counting proxy', () => {
  it('keeps a call that arrived while its process was stalled past the quiet time in the same wave', async () => {
    const proxy = await startCountingProxy(targetUrl, { quietMs });
    const sent = new Int32Array(new SharedArrayBuffer(4));
    const worker = peer(proxy.url, '/second', sent);
    try {
      const first = fetch(`${proxy.url}/first`).then((response) => response.text());
      await expect.poll(() => proxy.holding()).toBe(1);
      const heldAt = performance.now();
      const secondAnswered = new Promise((resolve) => worker.once('message', resolve));
      worker.postMessage('send');
      // The stall: this thread runs nothing until the second call is on its way and the quiet time is up.
      Atomics.wait(sent, 0, 0, 60_000);
      expect(Atomics.load(sent, 0)).toBe(1);
      while (performance.now() - heldAt < quietMs * 2);
      await Promise.all([first, secondAnswered]);
      expect(proxy.calls.map((call) => [call.path, call.wave])).toEqual(
        expect.arrayContaining([
          ['/first', 1],
          ['/second', 1],
        ]),
      );
      expect(proxy.calls).toHaveLength(2);
    } finally {
      await worker.terminate();
      await proxy.close();
    }
  });

  it('lets a call made after the wave it needs in a later wave', async () => {
    const proxy = await startCountingProxy(targetUrl, { quietMs });
    try {
      await fetch(`${proxy.url}/first`).then((response) => response.text());
      await fetch(`${proxy.url}/second`).then((response) => response.text());
      expect(proxy.calls.map((call) => [call.path, call.wave])).toEqual([
        ['/first', 1],
        ['/second', 2],
      ]);
    } finally {
      await proxy.close();
    }
  });
});
