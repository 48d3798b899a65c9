import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import { createGatewayApp } from '../app.js';
import { readGatewayConfig, type GatewayConfig } from '../config.js';
import { contractOperations } from '../contract/contract-operations.generated.js';
import { parseDeprecationFile } from '../deprecation/deprecation-config.js';
import { alsoOnReadLane, readLaneCovers, withReadSteps } from './read-lane-steps.js';

const pass: () => MiddlewareHandler = () => async (_c, next) => next();

/** An app shaped like the gateway's: marked middleware for every path, and a `/service` route with a chain. */
function gatewayLike(extra: { everywhere?: MiddlewareHandler; inChain?: MiddlewareHandler } = {}) {
  const app = new Hono();
  app.use('*', alsoOnReadLane(pass()));
  if (extra.everywhere) app.use('*', extra.everywhere);
  app.use('/graphql/*', pass());
  app.get('/graphql/v1', (c) => c.text('graphql'));
  const steps = [alsoOnReadLane(pass()), ...(extra.inChain ? [extra.inChain] : [])];
  const service = new Hono();
  service.all(
    '/service/*',
    withReadSteps((c) => c.text('service'), steps),
  );
  app.route('/', service);
  return app;
}

describe('readLaneCovers', () => {
  it('takes an app whose every step for a /service read is one the lane does, whatever runs elsewhere', () => {
    expect(readLaneCovers(gatewayLike())).toBe(true);
  });

  it('turns the lane off when a middleware is added to the list, for every path or for /service', () => {
    expect(readLaneCovers(gatewayLike({ everywhere: pass() }))).toBe(false);
    const app = gatewayLike();
    // A sub-app with its own error handler: Hono wraps its handlers, which are then no step of the lane's.
    const sub = new Hono();
    sub.use('/service/*', alsoOnReadLane(pass()));
    sub.onError((_error, c) => c.text('failed', 500));
    app.route('/', sub);
    expect(readLaneCovers(app)).toBe(false);
  });

  it("turns the lane off when the /service route's read chain has a step the lane does not", () => {
    expect(readLaneCovers(gatewayLike({ inChain: pass() }))).toBe(false);
  });
});

describe('the gateway app and its read lane', () => {
  const base = readGatewayConfig({ LOG_LEVEL: 'silent' });
  const laneOf = async (config: GatewayConfig) => {
    const gateway = createGatewayApp(config);
    const lane = gateway.serviceReads;
    await gateway.close();
    return lane;
  };

  it('has the lane with nothing configured that the lane does not do, and not with tracing, shadow or deprecation', async () => {
    expect(await laneOf(base)).toBeDefined();
    expect(
      await laneOf({ ...base, tracing: { ...base.tracing, endpoint: new URL('http://127.0.0.1:9') } }),
    ).toBeUndefined();
    expect(await laneOf({ ...base, shadow: { ...base.shadow, sampleRate: 0.5 } })).toBeUndefined();
    const deprecation = parseDeprecationFile(
      'endpoints: [{ endpoint: "GET /service/e/{uuid}/", deprecated: 2026-01-01 }]',
      contractOperations,
    );
    expect(await laneOf({ ...base, deprecation })).toBeUndefined();
  });
});
