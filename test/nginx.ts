import { accessSync, constants } from 'node:fs';

/** Debian's nginx, where `.ci/run` installs it. */
const candidates = ['/usr/sbin/nginx', '/usr/bin/nginx'];

/** Set to `1` to run without nginx on purpose: the nginx tests are then skipped, and say so. */
export const skipNginxVariable = 'SKIP_NGINX_TESTS';

export interface NginxForTests {
  /** Whether the nginx tests are skipped: only when nginx is missing and `SKIP_NGINX_TESTS=1`. */
  skip: boolean;
  /** The nginx binary; when it is missing, an error that says how to install it or skip on purpose. */
  path(): string;
}

/**
 * nginx for the tests that put it in front of gateways. A missing nginx fails those tests with a sentence
 * that says how to fix it, so a test of the load balancer never passes by not running; only
 * `SKIP_NGINX_TESTS=1` skips them, with a warning.
 *
 * @example
 * const nginx = nginxForTests('test/stateless.test.ts');
 * describe.skipIf(nginx.skip)('two gateways behind a load balancer', () => {
 *   beforeAll(() => spawn(nginx.path(), […]));
 * });
 */
export function nginxForTests(testFile: string): NginxForTests {
  const found = candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  const skip = found === undefined && process.env[skipNginxVariable] === '1';
  if (skip)
    console.warn(`Skipping the nginx tests of ${testFile}: nginx is missing and ${skipNginxVariable}=1.`);
  return {
    skip,
    path: () => {
      if (found !== undefined) return found;
      throw new Error(
        `${testFile} needs nginx at ${candidates.join(' or ')}: install it (apt-get install -y nginx), ` +
          `or set ${skipNginxVariable}=1 to skip these tests knowingly.`,
      );
    },
  };
}
