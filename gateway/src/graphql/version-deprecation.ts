import type { MiddlewareHandler } from 'hono';
import type { GatewayVariables } from '../auth/bearer-auth.js';
import { ConfigError } from '../config-error.js';
import type { DeprecationRule, DeprecationSettings } from '../deprecation/deprecation-config.js';
import {
  deprecationNotice,
  refusal,
  signalDeprecation,
  type DeprecationNotice,
} from '../deprecation/deprecation-notice.js';

/** The gateway's own versions; every other served version is one of OS2mo's numbered versions. */
export const gatewayOwnVersions: readonly string[] = ['v1', 'v2'];

/**
 * The `Deprecation` date of the gateway's own versions when they are deprecated by default: the release
 * that first served OS2mo's versions beside them.
 */
export const gatewayVersionsDeprecatedSince = new Date('2026-11-25T00:00:00Z');

export interface VersionDeprecationOptions {
  settings: DeprecationSettings;
  /** The served versions, oldest first. */
  served: string[];
  guideUrl: string;
}

/**
 * The deprecated GraphQL versions by name: those the file lists, and by default (unless the file says
 * `deprecateGatewayVersions: false` or lists them itself) the gateway's own v1 and v2 as soon as one of
 * OS2mo's versions is served. Each names the newest of OS2mo's versions (or the newest version) as its
 * replacement. A listed version that is not served stops the start, naming `DEPRECATION_CONFIG`.
 *
 * @example
 * versionDeprecations({ settings: config.deprecation, served: ['v1', 'v2', 'v30'], guideUrl });
 */
export function versionDeprecations(options: VersionDeprecationOptions): Map<string, DeprecationNotice> {
  const { settings, served } = options;
  const os2mo = served.filter((name) => !gatewayOwnVersions.includes(name));
  const newest = os2mo[os2mo.length - 1] ?? served[served.length - 1];
  const notices = new Map<string, DeprecationNotice>();
  const add = (version: string, rule: DeprecationRule) =>
    notices.set(
      version,
      deprecationNotice(`GraphQL ${version}`, rule, {
        replacement: rule.replacement ?? `/graphql/${newest}`,
        guideUrl: options.guideUrl,
      }),
    );
  settings.versions.forEach((entry, index) => {
    if (!served.includes(entry.version)) {
      throw new ConfigError(
        'DEPRECATION_CONFIG',
        `versions[${index}].version: ${entry.version} is not served (served: ${served.join(', ')})`,
      );
    }
    add(entry.version, entry);
  });
  if (settings.deprecateGatewayVersions && os2mo.length > 0) {
    for (const version of gatewayOwnVersions) {
      if (!served.includes(version) || notices.has(version)) continue;
      add(version, {
        deprecated: gatewayVersionsDeprecatedSince,
        brownouts: [],
        retired: false,
        exemptClients: [],
      });
    }
  }
  return notices;
}

/**
 * The deprecation step of `/graphql/{version}`, after the bearer token: `Deprecation`, `Sunset` and `Link`
 * on a deprecated version's answers, or the `410 GONE` GraphQL error during a brownout (exempt clients
 * aside) and once retired.
 */
export function versionDeprecationStep(
  notices: Map<string, DeprecationNotice>,
  clock: () => Date = () => new Date(),
): MiddlewareHandler<{ Variables: GatewayVariables }> {
  return async (c, next) => {
    const notice = notices.get(c.req.param('version') ?? '');
    if (!notice) return next();
    const gone = refusal(notice, clock(), c.get('principal')?.clientId);
    if (gone) throw gone;
    await next();
    signalDeprecation(c.res.headers, notice);
  };
}

/**
 * The step in front of every path under `/graphql/{version}` (the endpoint, its GraphiQL page, its
 * `schema.graphql`): a retired version answers `410` there to everyone, before the token is read, so no
 * address of it still serves its schema.
 */
export function retiredVersionStep(
  notices: Map<string, DeprecationNotice>,
  clock: () => Date = () => new Date(),
): MiddlewareHandler<{ Variables: GatewayVariables }> {
  const retired = new Map([...notices].filter(([, notice]) => notice.rule.retired));
  return async (c, next) => {
    const notice = retired.get(c.req.param('version') ?? '');
    if (notice) throw refusal(notice, clock(), undefined);
    await next();
  };
}
