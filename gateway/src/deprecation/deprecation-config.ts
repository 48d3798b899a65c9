import { parse as parseYaml } from 'yaml';
import type { EndpointOperation } from '../contract/endpoint-templates.js';

/** A time span during which a deprecated endpoint or version answers `410` (a brownout). */
export interface BrownoutWindow {
  from: Date;
  to: Date;
}

/** What is configured for one deprecated endpoint or version. */
export interface DeprecationRule {
  /** Since when it is deprecated (`Deprecation`). */
  deprecated: Date;
  /** When it is to be switched off (`Sunset`), if decided. */
  sunset?: Date;
  brownouts: BrownoutWindow[];
  /** Switched off: `410` to every caller, permanently. */
  retired: boolean;
  /** The query (or version) that replaces it, when the coverage report's is not what callers should use. */
  replacement?: string;
  /** Clients (`azp`) a brownout leaves alone: this entry's and the file's. */
  exemptClients: string[];
}

export interface EndpointDeprecation extends DeprecationRule {
  /** As written: `GET /service/ou/{uuid}/details/manager`, `/service/e/*`, `/service/*`. */
  endpoint: string;
  /** The method it applies to; every method when not given. */
  method?: string;
  /** The contract's path template, for an entry naming one operation. */
  template?: string;
  /** The path prefix, for an entry ending in `*`. */
  prefix?: string;
}

export interface VersionDeprecation extends DeprecationRule {
  version: string;
}

/** The deprecation file (`DEPRECATION_CONFIG`), validated. */
export interface DeprecationSettings {
  /** Where `Link: …; rel="deprecation"` points; `MIGRATION_GUIDE_URL` when not given. */
  guideUrl?: string;
  endpoints: EndpointDeprecation[];
  versions: VersionDeprecation[];
  /**
   * Whether the gateway's own versions (v1, v2) are deprecated by default once one of OS2mo's versions is
   * served (`deprecateGatewayVersions`, default `true`).
   */
  deprecateGatewayVersions: boolean;
}

/** No file: nothing deprecated but the default for the gateway's own versions. */
export const noDeprecationFile: DeprecationSettings = {
  endpoints: [],
  versions: [],
  deprecateGatewayVersions: true,
};

/** A problem in the file, with where it is (`endpoints[0].sunset: …`). */
export class DeprecationFileError extends Error {}

type Json = Record<string, unknown>;

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ruleKeys = ['deprecated', 'sunset', 'brownouts', 'retired', 'replacement', 'exemptClients'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Json, allowed: string[], where: string): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined) {
    throw new DeprecationFileError(`${where}: unknown key "${unknown}" (allowed: ${allowed.join(', ')})`);
  }
}

/** `2027-03-01` (midnight UTC) or an RFC 3339 time with its zone, `2027-03-01T09:00:00+01:00`. */
function date(value: unknown, where: string): Date {
  const text = value instanceof Date ? value.toISOString() : value;
  const ok =
    typeof text === 'string' &&
    /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/.test(text);
  const parsed = ok ? new Date(text.length === 10 ? `${text}T00:00:00Z` : text) : undefined;
  if (parsed === undefined || Number.isNaN(parsed.getTime())) {
    throw new DeprecationFileError(
      `${where}: must be a date such as 2027-03-01 or 2027-03-01T09:00:00Z, got ${JSON.stringify(value)}`,
    );
  }
  return parsed;
}

function clientList(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item === '')) {
    throw new DeprecationFileError(`${where}: must be a list of client ids (azp), e.g. [payroll-sync]`);
  }
  return value as string[];
}

function brownouts(value: unknown, where: string): BrownoutWindow[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new DeprecationFileError(`${where}: must be a list of windows such as { from: …, to: … }`);
  }
  return value.map((item, index) => {
    const at = `${where}[${index}]`;
    if (!isObject(item)) throw new DeprecationFileError(`${at}: must be { from: …, to: … }`);
    onlyKeys(item, ['from', 'to'], at);
    const window = { from: date(item.from, `${at}.from`), to: date(item.to, `${at}.to`) };
    if (window.to <= window.from) throw new DeprecationFileError(`${at}: "to" must be after "from"`);
    return window;
  });
}

function rule(entry: Json, where: string, exemptForAll: string[]): DeprecationRule {
  const deprecated = date(entry.deprecated, `${where}.deprecated`);
  const sunset = entry.sunset === undefined ? undefined : date(entry.sunset, `${where}.sunset`);
  if (sunset !== undefined && sunset < deprecated) {
    throw new DeprecationFileError(`${where}.sunset: must not be before "deprecated" (RFC 8594)`);
  }
  if (entry.retired !== undefined && typeof entry.retired !== 'boolean') {
    throw new DeprecationFileError(`${where}.retired: must be true or false`);
  }
  if (
    entry.replacement !== undefined &&
    (typeof entry.replacement !== 'string' || entry.replacement === '')
  ) {
    throw new DeprecationFileError(`${where}.replacement: must be the query or version that replaces it`);
  }
  return {
    deprecated,
    ...(sunset === undefined ? {} : { sunset }),
    brownouts: brownouts(entry.brownouts, `${where}.brownouts`),
    retired: entry.retired === true,
    ...(entry.replacement === undefined ? {} : { replacement: entry.replacement as string }),
    exemptClients: [...exemptForAll, ...clientList(entry.exemptClients, `${where}.exemptClients`)],
  };
}

/** `GET /service/…` (one operation of the contract), `/service/…` (every method), or a prefix ending in `*`. */
function endpointTarget(
  value: unknown,
  where: string,
  operations: readonly EndpointOperation[],
): Pick<EndpointDeprecation, 'method' | 'template' | 'prefix'> {
  const match = typeof value === 'string' ? /^(?:([A-Z]+) )?(\/service\/\S*)$/.exec(value) : null;
  if (!match) {
    throw new DeprecationFileError(
      `${where}: must be an endpoint of the contract such as "GET /service/ou/{uuid}/details/manager", or a prefix such as "/service/e/*", got ${JSON.stringify(value)}`,
    );
  }
  const [, method, path] = match as unknown as [string, string | undefined, string];
  if (method !== undefined && !methods.includes(method)) {
    throw new DeprecationFileError(
      `${where}: the method must be one of ${methods.join(', ')}, got "${method}"`,
    );
  }
  if (path.endsWith('*')) return { method, prefix: path.slice(0, -1) };
  const known = operations.some(
    (operation) => operation.path === path && (method ?? operation.method) === operation.method,
  );
  if (!known) {
    throw new DeprecationFileError(
      `${where}: "${value as string}" is not an operation of the contract (openapi/legacy-service.yaml)`,
    );
  }
  return { method, template: path };
}

function entries(value: unknown, where: string): Json[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isObject)) {
    throw new DeprecationFileError(`${where}: must be a list of entries`);
  }
  return value;
}

/**
 * The deprecation file's text (YAML or JSON) as settings: every date, window and client list checked,
 * every endpoint found in the contract's `operations`, unknown keys refused (a misspelt `brownout` would
 * otherwise be a brownout that silently never happens).
 *
 * @example
 * parseDeprecationFile(readFileSync(process.env.DEPRECATION_CONFIG, 'utf8'), contractOperations);
 */
export function parseDeprecationFile(
  text: string,
  operations: readonly EndpointOperation[],
): DeprecationSettings {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new DeprecationFileError(`is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isObject(document))
    throw new DeprecationFileError('must hold an object with "endpoints" and/or "versions"');
  onlyKeys(
    document,
    ['guide', 'exemptClients', 'deprecateGatewayVersions', 'endpoints', 'versions'],
    'the file',
  );
  const exempt = clientList(document.exemptClients, 'exemptClients');
  if (
    document.guide !== undefined &&
    (typeof document.guide !== 'string' || !/^https?:\/\/\S+$/.test(document.guide))
  ) {
    throw new DeprecationFileError(`guide: must be an http(s) URL, got ${JSON.stringify(document.guide)}`);
  }
  const flag = document.deprecateGatewayVersions;
  if (flag !== undefined && typeof flag !== 'boolean') {
    throw new DeprecationFileError('deprecateGatewayVersions: must be true or false');
  }
  const endpoints = entries(document.endpoints, 'endpoints').map((entry, index) => {
    const where = `endpoints[${index}]`;
    onlyKeys(entry, ['endpoint', ...ruleKeys], where);
    return {
      endpoint: entry.endpoint as string,
      ...endpointTarget(entry.endpoint, `${where}.endpoint`, operations),
      ...rule(entry, where, exempt),
    };
  });
  const versions = entries(document.versions, 'versions').map((entry, index) => {
    const where = `versions[${index}]`;
    onlyKeys(entry, ['version', ...ruleKeys], where);
    if (typeof entry.version !== 'string' || !/^v\d+$/.test(entry.version)) {
      throw new DeprecationFileError(
        `${where}.version: must be a version such as v1, got ${JSON.stringify(entry.version)}`,
      );
    }
    return { version: entry.version, ...rule(entry, where, exempt) };
  });
  return {
    ...(document.guide === undefined ? {} : { guideUrl: document.guide as string }),
    endpoints,
    versions,
    deprecateGatewayVersions: flag !== false,
  };
}
