import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { routeChain } from './route-chain.js';

const onError = (error: Error) => Response.json({ error: error.message }, { status: 418 });

describe('routeChain', () => {
  it('runs the steps in order, and a step sees and may replace the answer after next()', async () => {
    const app = new Hono();
    const order: string[] = [];
    app.all(
      '/x',
      routeChain(
        [
          async (c, next) => {
            order.push('first');
            await next();
            c.res = new Response(`${await c.res.text()} seen`, c.res);
          },
          async (_c, next) => {
            order.push('second');
            await next();
          },
          async (c) => {
            order.push('handler');
            return c.text('answer', 201);
          },
        ],
        onError,
      ),
    );
    const response = await app.request('/x');
    expect(order).toEqual(['first', 'second', 'handler']);
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('answer seen');
  });

  it('lets a step answer without calling next()', async () => {
    const app = new Hono();
    let reached = false;
    app.all(
      '/x',
      routeChain(
        [
          async (c) => c.text('refused', 403),
          async (c) => {
            reached = true;
            return c.text('answer');
          },
        ],
        onError,
      ),
    );
    const response = await app.request('/x');
    expect(response.status).toBe(403);
    expect(reached).toBe(false);
  });

  it('answers an error thrown by any step with onError, once', async () => {
    const app = new Hono();
    let after = false;
    app.all(
      '/x',
      routeChain(
        [
          async (_c, next) => {
            await next();
            after = true;
          },
          () => {
            throw new Error('no such thing');
          },
        ],
        onError,
      ),
    );
    const response = await app.request('/x');
    expect(response.status).toBe(418);
    expect(await response.json()).toEqual({ error: 'no such thing' });
    expect(after).toBe(false);
  });
});
