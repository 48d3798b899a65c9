import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { legacyErrorHandler } from '../errors/legacy-error-body.js';
import { routeChain } from '../http/route-chain.js';
import { canonicalServicePath, servicePathProblem, serviceQueryProblem } from './service-path.js';

const uuid = '1f5e0a4c-0000-4000-8000-000000000001';

describe('servicePathProblem', () => {
  it.each([
    '/service/o/',
    `/service/e/${uuid}/details/engagement`,
    '/service/e/cpr_lookup/',
    // Characters a URL cannot hold as they are: a space, and each byte of a non-ASCII letter.
    '/service/f/job%20function/',
    '/service/f/%C3%A6bler%7Cpærer/',
    // A literal ";" is one more character of a segment, to the gateway and to Starlette alike.
    '/service/o/;x/',
  ])('accepts %s', (path) => {
    expect(servicePathProblem(path)).toBeUndefined();
  });

  // Issue 35, item 2: uvicorn unquotes the whole path before Starlette routes it
  // (its h11 and httptools protocols both set the ASGI `path` to the unquoted raw path), so each of these is routed as another path.
  it.each([
    [`/service/e%2F${uuid}/`, '"/" (%2F)'],
    ['/service/e%2fcpr_lookup/', '"/" (%2F)'],
    ['/service/details%2Fcreate', '"/" (%2F)'],
    ['/service/e/cpr%5Flookup/', '"_" (%5F)'],
    ['/service/%64etails/create', '"d" (%64)'],
    ['/service/e%5Ccpr_lookup/', '"\\" (%5C)'],
    ['/service/o%3B/', '";" (%3B)'],
    ['/service/o%3F/', '"?" (%3F)'],
    ['/service/o%23/', '"#" (%23)'],
    ['/service/x/%2E%2E/details/create', '"." (%2E)'],
    ['/service/x/%2e./details/create', '"." (%2E)'],
    ['/service/e%252Fcpr_lookup/', '"%" (%25)'],
    ['/service/o%00/', 'a control character'],
    ['/service/o%/', 'starts no percent-encoded byte'],
    ['/service/o%zz/', 'starts no percent-encoded byte'],
    ['/service/o%C3/', 'not UTF-8'],
  ])('refuses %s', (path, problem) => {
    expect(servicePathProblem(path)).toContain(problem);
  });
});

describe('serviceQueryProblem', () => {
  it('refuses a one-value parameter given twice, however spelled, and passes uuid and count lists', () => {
    expect(serviceQueryProblem('')).toBeUndefined();
    expect(serviceQueryProblem('query=Ahmed&at=2020-01-01')).toBeUndefined();
    expect(serviceQueryProblem('uuid=a&uuid=b&count=org_unit&count=engagement')).toBeUndefined();
    expect(serviceQueryProblem('query=Ahmed&query=0101011234')).toBe(
      'the parameter "query" is given 2 times, and it takes one value: give it once',
    );
    // URLSearchParams decodes names as Starlette does: an encoded name is the same parameter.
    expect(serviceQueryProblem('at=2020-01-01&%61t=2030-01-01')).toContain('"at" is given 2 times');
    expect(serviceQueryProblem('validity=past&validity=future&validity=present')).toContain('3 times');
  });
});

describe('canonicalServicePath', () => {
  const app = () => {
    const hono = new Hono();
    const reached: string[] = [];
    hono.all(
      '/service/*',
      routeChain(
        [
          canonicalServicePath(),
          async (c) => {
            reached.push(c.req.url);
            return c.json('passed');
          },
        ],
        legacyErrorHandler(() => undefined),
      ),
    );
    return { hono, reached };
  };

  it('answers 400 E_INVALID_PATH in the legacy body before any later step, for reads and writes', async () => {
    const { hono, reached } = app();
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await hono.request('/service/details%2Fcreate', { method });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: true,
        status: 400,
        error_key: 'E_INVALID_PATH',
        description:
          'The path is not accepted: it holds a "/" (%2F) written percent-encoded. Write separators, dots, letters and digits as they are; percent-encode only characters a URL cannot hold.',
      });
    }
    expect(reached).toEqual([]);
    // A query is the backend's to decode: only the path is checked.
    const read = await hono.request('/service/o/?query=a%2Fb');
    expect(read.status).toBe(200);
    expect(reached).toHaveLength(1);
  });
});
