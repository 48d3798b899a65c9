import { serverAudits, type AuditResult } from 'graphql-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedReadOnlyStack, type TestStack } from './stack.js';

/**
 * graphql-http's GraphQL-over-HTTP conformance audits against every version, with a valid token: no MUST
 * audit may fail. Failures of any level are printed; today none fail, so SHOULD and MAY are held too.
 */

let stack: TestStack;
let token: string;
beforeAll(async () => {
  stack = await sharedReadOnlyStack();
  token = await stack.token('alice');
});

/** Every audit request carries the bearer token, as a real client's would. */
const authorizedFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(input, { ...init, headers });
};

describe.each(['v1', 'v2', 'v30'])('GraphQL over HTTP audits on /graphql/%s', (version) => {
  let results: AuditResult[];
  beforeAll(async () => {
    const audits = serverAudits({
      url: () => `${stack.gateway.url}/graphql/${version}`,
      fetchFn: authorizedFetch,
    });
    results = [];
    for (const audit of audits) results.push(await audit.fn());
    const warnings = results.filter((result) => result.status === 'warn');
    const errors = results.filter((result) => result.status === 'error');
    const levels = ['MUST', 'SHOULD', 'MAY'].map(
      (level) => `${results.filter((result) => result.name.startsWith(`${level} `)).length} ${level}`,
    );
    console.log(
      `/graphql/${version}: ${results.length} audits (${levels.join(', ')}): ` +
        `${errors.length} MUST failures, ${warnings.length} SHOULD/MAY failures`,
    );
    for (const result of [...errors, ...warnings]) {
      const reason = 'reason' in result ? result.reason : '';
      console.log(`  ${result.status} ${result.id} ${result.name}: ${reason}`);
    }
  });

  /** The audits of some levels that did not pass; fails when none of those levels ran, which would prove nothing. */
  function failuresAt(levels: string[]): string[] {
    const ran = results.filter((result) => levels.some((level) => result.name.startsWith(`${level} `)));
    expect(ran.length, `no ${levels.join('/')} audit ran`).toBeGreaterThan(0);
    return ran
      .filter((result) => result.status !== 'ok')
      .map((result) => `${result.name}: ${'reason' in result ? result.reason : ''}`);
  }

  it('passes every MUST audit', () => {
    expect(failuresAt(['MUST'])).toEqual([]);
  });

  it('passes every SHOULD and MAY audit', () => {
    expect(failuresAt(['SHOULD', 'MAY'])).toEqual([]);
  });
});
