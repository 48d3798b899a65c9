import { GatewayError } from '../errors/gateway-error.js';
import type { DeprecationRule } from './deprecation-config.js';

/** One deprecated endpoint or version, ready to answer with: its headers are made once, at start. */
export interface DeprecationNotice {
  /** What callers know it by: `GET /service/ou/{uuid}/details/manager`, `GraphQL v1`. */
  name: string;
  rule: DeprecationRule;
  /** What replaces it, as a sentence names it ("the GraphQL query … on /graphql/v2", "/graphql/v30"). */
  replacement: string;
  guideUrl: string;
  /** `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and `Link`, for every answer it gives. */
  headers: Record<string, string>;
  exemptClients: ReadonlySet<string>;
}

/**
 * The signal headers: `Deprecation: @<unix seconds>` (a structured-field date, RFC 9745), `Sunset:` as an
 * HTTP-date (RFC 8594), and `Link` to the migration guide as `rel="deprecation"` and, once a sunset is set,
 * `rel="sunset"` (the guide is where the sunset policy is explained).
 */
export function deprecationHeaders(rule: DeprecationRule, guideUrl: string): Record<string, string> {
  const links = [`<${guideUrl}>; rel="deprecation"; type="text/html"`];
  if (rule.sunset) links.push(`<${guideUrl}>; rel="sunset"; type="text/html"`);
  return {
    Deprecation: `@${Math.floor(rule.deprecated.getTime() / 1000)}`,
    ...(rule.sunset ? { Sunset: rule.sunset.toUTCString() } : {}),
    Link: links.join(', '),
  };
}

/** Adds a notice's headers to an answer; a `Link` the answer already has (the backend's) is kept beside ours. */
export function signalDeprecation(headers: Headers, notice: DeprecationNotice): void {
  for (const [name, value] of Object.entries(notice.headers)) {
    if (name === 'Link') headers.append(name, value);
    else headers.set(name, value);
  }
}

export function deprecationNotice(
  name: string,
  rule: DeprecationRule,
  options: { replacement: string; guideUrl: string },
): DeprecationNotice {
  return {
    name,
    rule,
    replacement: options.replacement,
    guideUrl: options.guideUrl,
    headers: deprecationHeaders(rule, options.guideUrl),
    exemptClients: new Set(rule.exemptClients),
  };
}

/** The brownout window `now` falls in, if any. */
function brownoutAt(rule: DeprecationRule, now: Date) {
  return rule.brownouts.find((window) => window.from <= now && now < window.to);
}

/**
 * The `410` a caller gets, or `undefined` when it is served: always once retired; during a brownout window
 * unless the caller's client is exempt. The body names the replacement, the sunset and the guide; a
 * brownout's answer says when it ends (`Retry-After`, `brownout_ends`).
 */
export function refusal(
  notice: DeprecationNotice,
  now: Date,
  clientId: string | undefined,
): GatewayError | undefined {
  const { rule } = notice;
  const window = rule.retired ? undefined : brownoutAt(rule, now);
  if (
    !rule.retired &&
    (window === undefined || (clientId !== undefined && notice.exemptClients.has(clientId)))
  ) {
    return undefined;
  }
  const sunset = rule.sunset?.toISOString();
  const instead = `Use ${notice.replacement} instead; the migration guide is at ${notice.guideUrl}.`;
  const context = {
    reason: window ? 'brownout' : 'retired',
    replacement: notice.replacement,
    ...(sunset ? { sunset } : {}),
    ...(window ? { brownout_ends: window.to.toISOString() } : {}),
    migration_guide: notice.guideUrl,
  };
  if (window === undefined) {
    return new GatewayError(410, 'GONE', `${notice.name} has been switched off. ${instead}`, {
      errorKey: 'E_GONE',
      context,
      headers: notice.headers,
    });
  }
  const ahead = sunset ? `, ahead of its sunset on ${sunset}` : '';
  return new GatewayError(
    410,
    'GONE',
    `${notice.name} is switched off for a scheduled brownout until ${window.to.toISOString()}${ahead}. ${instead}`,
    {
      errorKey: 'E_GONE',
      context,
      headers: {
        ...notice.headers,
        'Retry-After': String(Math.max(1, Math.ceil((window.to.getTime() - now.getTime()) / 1000))),
      },
    },
  );
}
