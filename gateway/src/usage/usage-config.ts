import { ConfigError } from '../config-error.js';

/** Who-calls-what: which clients get a label of their own, and where the fleet's usage is read. */
export interface UsageConfig {
  /** Client ids (`azp`) counted under their own name (`USAGE_CLIENTS`); every other client is `other`. */
  clients: string[];
  /**
   * Clients (`azp`) whose `X-Gateway-Tool` header is believed (`USAGE_TOOL_CLIENTS`, default none): the
   * comparison CLI's own client. From any other client the header changes nothing.
   */
  toolClients: string[];
  /** The Prometheus server that scrapes every replica (`USAGE_PROMETHEUS_URL`); unset: this replica's counts. */
  prometheusUrl: URL | undefined;
  /**
   * The `Authorization` sent to that Prometheus (basic from `USAGE_PROMETHEUS_USERNAME`/`_PASSWORD`, bearer
   * from `USAGE_PROMETHEUS_TOKEN`). A function, so printing or serialising the config never shows it.
   */
  prometheusAuthorization?: () => string;
  /** How far back the report looks (`USAGE_WINDOW`), in seconds. */
  windowSeconds: number;
}

/** The credentials for `USAGE_PROMETHEUS_URL` from the environment; each mistake fails at start. */
function prometheusAuthorization(
  env: Record<string, string | undefined>,
  url: URL | undefined,
): (() => string) | undefined {
  const username = env.USAGE_PROMETHEUS_USERNAME ?? '';
  const password = env.USAGE_PROMETHEUS_PASSWORD ?? '';
  const token = env.USAGE_PROMETHEUS_TOKEN ?? '';
  if (username === '' && password === '' && token === '') return undefined;
  const given = token !== '' ? 'USAGE_PROMETHEUS_TOKEN' : 'USAGE_PROMETHEUS_USERNAME';
  if (url === undefined) throw new ConfigError(given, 'needs USAGE_PROMETHEUS_URL');
  if (token !== '' && (username !== '' || password !== '')) {
    throw new ConfigError(
      'USAGE_PROMETHEUS_TOKEN',
      'cannot be combined with USAGE_PROMETHEUS_USERNAME/_PASSWORD',
    );
  }
  if (token !== '') {
    if (!/^[\x21-\x7e]+$/.test(token))
      throw new ConfigError('USAGE_PROMETHEUS_TOKEN', 'must be one printable token');
    return () => `Bearer ${token}`;
  }
  if (username === '' || password === '') {
    throw new ConfigError(
      username === '' ? 'USAGE_PROMETHEUS_USERNAME' : 'USAGE_PROMETHEUS_PASSWORD',
      'basic credentials need both USAGE_PROMETHEUS_USERNAME and USAGE_PROMETHEUS_PASSWORD',
    );
  }
  if (username.includes(':')) throw new ConfigError('USAGE_PROMETHEUS_USERNAME', 'must not contain ":"');
  const basic = Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
  return () => `Basic ${basic}`;
}

const unitSeconds: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800, y: 31_536_000 };

/** A Prometheus duration of one unit (`90d`, `12h`, `2w`), in seconds. */
export function durationSeconds(text: string): number | undefined {
  const match = /^([1-9]\d{0,5})([smhdwy])$/.exec(text.trim());
  return match ? Number(match[1]) * unitSeconds[match[2]!]! : undefined;
}

/** The duration back in Prometheus' notation, in the largest unit that divides it. */
export function durationText(seconds: number): string {
  for (const unit of ['y', 'w', 'd', 'h', 'm'] as const) {
    if (seconds % unitSeconds[unit]! === 0) return `${seconds / unitSeconds[unit]!}${unit}`;
  }
  return `${seconds}s`;
}

/**
 * Reads `USAGE_CLIENTS`, `USAGE_TOOL_CLIENTS`, `USAGE_PROMETHEUS_URL` (with `USAGE_PROMETHEUS_USERNAME`/`_PASSWORD` or
 * `USAGE_PROMETHEUS_TOKEN`) and `USAGE_WINDOW`. The clients default to the ones whose tokens
 * are accepted (`IDP_ALLOWED_CLIENTS`), which is the realm's list; with `*` there is no list, so every client
 * would be `other` unless `USAGE_CLIENTS` names them.
 */
export function readUsageConfig(
  env: Record<string, string | undefined>,
  allowedClients: readonly string[] | 'any',
): UsageConfig {
  const named = (env.USAGE_CLIENTS ?? '')
    .split(',')
    .map((client) => client.trim())
    .filter((client) => client.length > 0);
  const invalid = named.find((client) => !/^[\x21-\x7e]{1,100}$/.test(client) || client === 'other');
  if (invalid !== undefined) {
    throw new ConfigError(
      'USAGE_CLIENTS',
      `"${invalid}" is not a client id ("other" is the label for the rest)`,
    );
  }
  const toolClients = (env.USAGE_TOOL_CLIENTS ?? '')
    .split(',')
    .map((client) => client.trim())
    .filter((client) => client.length > 0);
  const badTool = toolClients.find((client) => !/^[\x21-\x7e]{1,100}$/.test(client));
  if (badTool !== undefined) {
    throw new ConfigError('USAGE_TOOL_CLIENTS', `"${badTool}" is not a client id (azp)`);
  }
  if (allowedClients !== 'any') {
    const unknownTool = toolClients.find((client) => !allowedClients.includes(client));
    if (unknownTool !== undefined) {
      throw new ConfigError(
        'USAGE_TOOL_CLIENTS',
        `"${unknownTool}" is not one of the accepted clients (IDP_ALLOWED_CLIENTS: ${allowedClients.join(', ')})`,
      );
    }
  }
  const rawUrl = env.USAGE_PROMETHEUS_URL ?? '';
  let prometheusUrl: URL | undefined;
  if (rawUrl !== '') {
    try {
      prometheusUrl = new URL(rawUrl);
    } catch {
      throw new ConfigError('USAGE_PROMETHEUS_URL', `must be the Prometheus server's URL, got "${rawUrl}"`);
    }
    if (!['http:', 'https:'].includes(prometheusUrl.protocol)) {
      throw new ConfigError('USAGE_PROMETHEUS_URL', 'must be an http or https URL');
    }
    // Credentials in the URL would be shown wherever the URL is; they come from their own variables.
    if (prometheusUrl.username !== '' || prometheusUrl.password !== '') {
      throw new ConfigError(
        'USAGE_PROMETHEUS_URL',
        'must not carry credentials: set USAGE_PROMETHEUS_USERNAME/_PASSWORD or USAGE_PROMETHEUS_TOKEN',
      );
    }
  }
  const authorization = prometheusAuthorization(env, prometheusUrl);
  const window = env.USAGE_WINDOW ?? '90d';
  const windowSeconds = durationSeconds(window);
  if (windowSeconds === undefined || windowSeconds < 60) {
    throw new ConfigError(
      'USAGE_WINDOW',
      `must be a duration such as 90d, 12w or 24h (at least 1m), got "${window}"`,
    );
  }
  return {
    clients: named.length > 0 ? named : allowedClients === 'any' ? [] : [...allowedClients],
    toolClients,
    prometheusUrl,
    ...(authorization === undefined ? {} : { prometheusAuthorization: authorization }),
    windowSeconds,
  };
}
