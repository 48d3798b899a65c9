import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the stub backend received it. */
export interface StubRequest {
  method: string;
  /** Path and query exactly as they arrived, undecoded. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type StubHandler = (request: StubRequest, response: ServerResponse) => void;

export interface StubBackend {
  url: string;
  received: StubRequest[];
  /** Replaces how the stub answers (default: `200 []`). */
  answer(handler: StubHandler): void;
  close(): Promise<void>;
}

/** Answers JSON. */
export function json(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/**
 * A stand-in backend on a loopback port the OS chooses, for tests of legacy access: it records every
 * request as it arrived (path undecoded, headers, body) and answers as the test says.
 *
 * @example
 * const backend = await startStubBackend();
 * backend.answer((request, response) => json(response, 200, [{ uuid: 'org' }]));
 */
export async function startStubBackend(): Promise<StubBackend> {
  const received: StubRequest[] = [];
  const sockets = new Set<Socket>();
  let handler: StubHandler = (_request, response) => json(response, 200, []);
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request = {
        method: incoming.method ?? 'GET',
        url: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      handler(request, response);
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
    answer: (next) => {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
