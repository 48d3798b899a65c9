import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, onTestFinished, vi } from 'vitest';
import { fetch, idpAgent } from './idp-fetch.js';

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((_request, response) => response.end('{"keys":[]}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`;
});
afterAll(async () => {
  // The agent is the process's own, shared with the files after this one: only the server closes.
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it("sends through the gateway's own agent, even once Node's built-in undici has claimed the global dispatcher", async () => {
  // The HTTP server's adapter touches the global Response at start, which loads Node's copy of undici.
  void globalThis.Response;
  const dispatch = vi.spyOn(idpAgent, 'dispatch');
  onTestFinished(() => dispatch.mockRestore());
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  expect(await response.json()).toEqual({ keys: [] });
  expect(dispatch).toHaveBeenCalledTimes(1);
});
