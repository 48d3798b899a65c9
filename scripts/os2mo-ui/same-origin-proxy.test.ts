import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGatewayPath, startSameOriginProxy, type SameOriginProxy } from './same-origin-proxy.js';

/** A server that answers who it is, the path, the Host it was sent and the body it got. */
async function echo(name: string): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(201, { 'content-type': 'application/json', 'set-cookie': `${name}=1` });
      response.end(
        JSON.stringify({
          name,
          path: request.url,
          host: request.headers.host,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('isGatewayPath', () => {
  it('takes a prefix and what is below it, not a longer name', () => {
    const prefixes = ['/graphql', '/service'];
    expect(isGatewayPath('/graphql', prefixes)).toBe(true);
    expect(isGatewayPath('/graphql/v29', prefixes)).toBe(true);
    expect(isGatewayPath('/graphql?x=1', prefixes)).toBe(true);
    expect(isGatewayPath('/service/o/', prefixes)).toBe(true);
    expect(isGatewayPath('/graphqlish', prefixes)).toBe(false);
    expect(isGatewayPath('/organisation/graphql', prefixes)).toBe(false);
    expect(isGatewayPath('/', prefixes)).toBe(false);
  });
});

describe('the same-origin proxy', () => {
  let gateway: { server: Server; url: string };
  let ui: { server: Server; url: string };
  let proxy: SameOriginProxy;

  beforeAll(async () => {
    gateway = await echo('gateway');
    ui = await echo('ui');
    proxy = await startSameOriginProxy({
      port: 0,
      gatewayPrefixes: ['/graphql'],
      targets: () => ({ gateway: gateway.url, ui: ui.url }),
    });
  });
  afterAll(async () => {
    await proxy.close();
    gateway.server.close();
    ui.server.close();
  });

  it("sends the gateway's paths to the gateway with the body and the browser's Host, and its answer back as it is", async () => {
    const response = await fetch(`${proxy.url}/graphql/v29`, { method: 'POST', body: '{"query":"{ x }"}' });
    expect(response.status).toBe(201);
    expect(response.headers.get('set-cookie')).toBe('gateway=1');
    expect(await response.json()).toEqual({
      name: 'gateway',
      path: '/graphql/v29',
      host: `localhost:${proxy.port}`,
      body: '{"query":"{ x }"}',
    });
  });

  it('sends everything else to the UI', async () => {
    const response = await fetch(`${proxy.url}/organisation/abc?tab=1`);
    expect(await response.json()).toMatchObject({ name: 'ui', path: '/organisation/abc?tab=1' });
  });

  it('answers 502 with the reason when a target is down', async () => {
    const down = await startSameOriginProxy({
      port: 0,
      gatewayPrefixes: ['/graphql'],
      targets: () => ({ gateway: 'http://127.0.0.1:1', ui: ui.url }),
    });
    try {
      const response = await fetch(`${down.url}/graphql/v29`);
      expect(response.status).toBe(502);
      expect(await response.text()).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1/);
    } finally {
      await down.close();
    }
  });
});
