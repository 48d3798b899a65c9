import { describe, expect, it } from 'vitest';
import { isPlainHost, isPlainServiceTarget, requestIdOf } from './plain-request.js';

/** What @hono/node-server's `new URL` makes of a request: the lane may only take what it leaves alone. */
const parsed = (host: string, target: string) => new URL(`http://${host}${target}`);

describe('isPlainServiceTarget', () => {
  const plain = [
    '/service/o/',
    '/service/ou/0b6a1c2d-0000-4000-8000-000000000001/details/manager',
    '/service/o/?limit=1&start=0',
    '/service/e/x/details/engagement?validity=2020-01-01/2021-01-01&at=2024-05-01',
    '/service/o/?q=a%20b',
    "/service/o/it's",
  ];
  const notPlain = [
    // A one-value parameter given twice: the app refuses it (`canonicalServicePath`).
    '/service/o/1f5e0a4c/e/?query=a&query=b',
    '/service/../metrics',
    '/service/o/./',
    '/service/o/..',
    '/service/o/%2e%2e/',
    '/service/o/%6F',
    "/service/o/?q=it's",
    '/service/o/?q="x"',
    '/service/o/<x>',
    '/service/o/{x}',
    '/service/o/`x`',
    '/service/o/^x',
    '/service',
    '/graphql/v2',
    '/service/o/\\x',
    '/service/o/#top',
  ];

  it.each(plain)('takes %s, which URL leaves as it is', (target) => {
    expect(isPlainServiceTarget(target)).toBe(true);
    const url = parsed('localhost:8080', target);
    expect(`${url.pathname}${url.search}`).toBe(target);
  });

  it.each(notPlain)('leaves %s to the app', (target) => {
    expect(isPlainServiceTarget(target)).toBe(false);
  });
});

describe('isPlainHost', () => {
  const plain = ['localhost:8080', '127.0.0.1:8080', 'gateway', 'gateway.example.org', 'a-b.example:65535'];
  const notPlain = [
    'LOCALHOST:8080',
    'localhost:80',
    'localhost:08080',
    'localhost:65536',
    '127.1:8080',
    '0x7f.0.0.1',
    '127.0.0.01',
    'xn--nxasmq6b.example',
    'localhost.',
    '[::1]:8080',
    'a, b',
    '',
  ];

  it.each(plain)('takes %s, which URL leaves as it is', (host) => {
    expect(isPlainHost(host)).toBe(true);
    expect(parsed(host, '/service/o/').host).toBe(host);
  });

  it.each(notPlain)('leaves %j to the app', (host) => {
    expect(isPlainHost(host)).toBe(false);
  });
});

describe('requestIdOf', () => {
  it("keeps a client's id of word characters, - and =, up to 255 of them, as hono/request-id does", () => {
    expect(requestIdOf('trace-1=ok_2')).toBe('trace-1=ok_2');
    expect(requestIdOf('x'.repeat(255))).toBe('x'.repeat(255));
  });

  it.each([undefined, '', 'not valid!', 'a, b', 'x'.repeat(256), 'é'])(
    'makes a new id for %j',
    (incoming) => {
      const made = requestIdOf(incoming);
      expect(made).not.toBe(incoming);
      expect(made).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    },
  );
});
