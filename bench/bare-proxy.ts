import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

/**
 * The least a Node proxy can do: forward the method, path and headers to the legacy service over a
 * keep-alive undici pool (with the caller's `Authorization`) and copy the answer back, with no token check,
 * logging or header rules.
 * `npm run bench` measures it beside the gateway's `/service` passthrough, so the passthrough's overhead
 * can be read against what one more process hop costs on this machine.
 */
const target = process.env.BARE_PROXY_TARGET;
if (!target) throw new Error('BARE_PROXY_TARGET must be the legacy service origin.');
const pool = new Pool(target, { connections: 64 });
const server = createServer((req, res) => {
  pool
    .request({
      method: req.method as 'GET',
      path: req.url ?? '/',
      // The caller's token goes on as the gateway relays it: the legacy service checks it.
      headers: {
        accept: 'application/json',
        ...(req.headers.authorization && { authorization: req.headers.authorization }),
      },
    })
    .then(async (upstream) => {
      const body = Buffer.from(await upstream.body.arrayBuffer());
      res.writeHead(upstream.statusCode, {
        'content-type': 'application/json',
        'content-length': body.length,
      });
      res.end(body);
    })
    .catch(() => {
      res.writeHead(502).end();
    });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`bare proxy on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once('SIGTERM', () => {
  server.close();
  void pool.close();
});
