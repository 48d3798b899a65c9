import type { Principal } from '../auth/token-verifier.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { ForwardResponse } from '../legacy/legacy-client.js';
import type { Logger } from '../observability/logger.js';
import { cprRequestIds, mayReadCpr, readerOf, type CprReadPolicy } from './cpr-policy.js';
import { cprSearchEndpoints } from './cpr-endpoints.js';
import { defaultMaxCprNumbers, emptyTally, isCprSearch, logCprSearch } from './cpr-search.js';

export interface ServiceCprOptions {
  policy: CprReadPolicy;
  /** The contract's reads whose answer can carry `cpr_no` (`cprEndpoints`). */
  endpoints: readonly string[];
  logger: Logger;
}

/** Who asked, for the CPR line and the policy. */
export interface CprReader {
  principal: Principal | undefined;
  /** The request's id, as every log line of the request carries it. */
  requestId: string | undefined;
  /** The `X-Request-Id` the client sent, if any. */
  clientRequestId: string | undefined;
  /** The request's path and query as forwarded, for a search by CPR number (`?query=`). */
  target?: string;
}

interface Template {
  path: string;
  /** Segments without the trailing slash; `undefined` where the template has a parameter. */
  segments: (string | undefined)[];
  literals: number;
}

/** A path segment as a router decodes it; one that does not decode is compared as sent. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/** The objects in an answer that carry a CPR number, wherever they sit in it. */
function withCpr(value: unknown, found: Record<string, unknown>[]): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const item of value) withCpr(item, found);
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.cpr_no === 'string' && record.cpr_no !== '') found.push(record);
    for (const key in record) if (key !== 'cpr_no') withCpr(record[key], found);
  }
  return found;
}

const lookupEndpoint = '/service/e/cpr_lookup/';
const autocompleteEndpoint = '/service/e/autocomplete/';

/** The CPR numbers a person search's `?query=` values search by (each value the backend may take). */
function searchedNumbers(endpoint: string, target: string | undefined): Set<string> {
  const numbers = new Set<string>();
  if (!cprSearchEndpoints.includes(endpoint) || target === undefined) return numbers;
  const queryStart = target.indexOf('?');
  if (queryStart === -1) return numbers;
  for (const [name, value] of new URLSearchParams(target.slice(queryStart + 1))) {
    if (name === 'query' && isCprSearch(value)) numbers.add(value.replace(/\D/g, ''));
  }
  return numbers;
}

/**
 * CPR numbers on `/service`, for the passthrough and the read lane alike. Only reads whose contract
 * template can carry `cpr_no` are touched: their answer is read whole, one `cpr_read` line is logged for
 * it (how many numbers, whose, who read them; never a number), and for a reader the policy does not serve
 * the numbers are taken out. A lookup by number is refused to such a reader. Every other answer streams on
 * as it came.
 */
export function serviceCpr(options: ServiceCprOptions) {
  const templates: Template[] = options.endpoints
    .map((path) => {
      const segments = path
        .replace(/\/$/, '')
        .split('/')
        .map((segment) => (/^\{[^}]+\}$/.test(segment) ? undefined : segment.toLowerCase()));
      return { path, segments, literals: segments.filter((segment) => segment !== undefined).length };
    })
    .sort((a, b) => b.literals - a.literals);

  /**
   * A person search by CPR number (`?query=<number>` on the listing or the autocomplete): one `cpr_search`
   * line (how many numbers, whom they found, who searched; never a number), and for a reader the policy
   * serves no numbers a search that found no one (`items: []`, and `total: 0` where the listing counts),
   * since any hit would say whose the number is. The people found are the listing's items with a number,
   * or every autocomplete item (an autocomplete item carries no number: each one is a match).
   * More numbers than `CPR_MAX_NUMBERS_PER_REQUEST` in one request is refused.
   */
  function searchAnswer(
    endpoint: string,
    parsed: unknown,
    numbers: Set<string>,
    allowed: boolean,
    reader: CprReader,
  ): Buffer<ArrayBuffer> {
    if (numbers.size > (options.policy.maxNumbersPerRequest ?? defaultMaxCprNumbers)) {
      throw new GatewayError(
        400,
        'TOO_MANY_CPR_NUMBERS',
        'The request searches by too many CPR numbers at once. Ask for fewer numbers in each request.',
      );
    }
    const page = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
    const tally = { ...emptyTally(), numbers };
    if (!allowed) {
      page.items = [];
      if ('total' in page) page.total = 0;
    } else {
      const found =
        endpoint === autocompleteEndpoint && Array.isArray(page.items) ? page.items : withCpr(parsed, []);
      for (const record of found as Record<string, unknown>[]) {
        if (typeof record?.uuid === 'string') tally.subjects.add(record.uuid);
      }
    }
    logCprSearch(
      options.logger,
      { road: 'service', endpoint: `GET ${endpoint}` },
      tally,
      {
        principal: reader.principal,
        requestId: reader.requestId,
        ids: cprRequestIds(reader.requestId, reader.clientRequestId),
      },
      !allowed,
    );
    return Buffer.from(JSON.stringify(parsed));
  }

  return {
    /**
     * The CPR-carrying endpoint a read reaches, or undefined. Matched as the backend routes it: with or
     * without a trailing slash, segments percent-decoded, literals in any case (a looser match only costs
     * reading an answer that holds no number).
     */
    endpointOf(method: string, target: string): string | undefined {
      if (method !== 'GET' && method !== 'HEAD') return undefined;
      const queryStart = target.indexOf('?');
      const path = (queryStart === -1 ? target : target.slice(0, queryStart)).replace(/\/+$/, '');
      const segments = path.split('/').map(decoded);
      return templates.find(
        (template) =>
          template.segments.length === segments.length &&
          template.segments.every((literal, index) =>
            literal === undefined ? segments[index] !== '' : literal === segments[index],
          ),
      )?.path;
    },

    /** A lookup by CPR number, refused to a reader the policy serves no numbers (it would answer whose it is). */
    refusal(endpoint: string, principal: Principal | undefined): GatewayError | undefined {
      if (endpoint !== lookupEndpoint || mayReadCpr(options.policy, principal)) return undefined;
      return new GatewayError(
        403,
        'FORBIDDEN',
        'Looking a person up by CPR number needs a role or client that CPR_READ_ROLES or CPR_READ_CLIENTS names.',
      );
    },

    /**
     * The answer of a CPR-carrying read (status 200), read whole: logged, and without its numbers for a
     * reader the policy serves none. An answer the gateway cannot read as JSON is passed on to a reader
     * who may see the numbers, and refused to one who may not.
     */
    async answer(
      endpoint: string,
      upstream: ForwardResponse,
      reader: CprReader,
    ): Promise<Buffer<ArrayBuffer>> {
      const bytes = Buffer.from(await upstream.body.arrayBuffer());
      const allowed = mayReadCpr(options.policy, reader.principal);
      const encoding = upstream.headers['content-encoding'];
      let parsed: unknown;
      try {
        if (encoding !== undefined && encoding !== 'identity') throw new Error('encoded');
        parsed = JSON.parse(bytes.toString('utf8'));
      } catch {
        if (allowed) return bytes;
        throw new GatewayError(
          502,
          'UPSTREAM_UNAVAILABLE',
          'The legacy service answered in a form the gateway cannot check for CPR numbers.',
        );
      }
      const searched = searchedNumbers(endpoint, reader.target);
      if (searched.size > 0) return searchAnswer(endpoint, parsed, searched, allowed, reader);
      const records = withCpr(parsed, []);
      if (records.length === 0) return bytes;
      if (!allowed) {
        for (const record of records) delete record.cpr_no;
        return Buffer.from(JSON.stringify(parsed));
      }
      options.logger.info(
        {
          requestId: reader.requestId,
          cpr_read: {
            road: 'service',
            endpoint: `GET ${endpoint}`,
            count: records.length,
            subjects: records.map((record) => (typeof record.uuid === 'string' ? record.uuid : null)),
            ...readerOf(reader.principal),
            ...cprRequestIds(reader.requestId, reader.clientRequestId),
          },
        },
        'CPR numbers read',
      );
      return bytes;
    },
  };
}

export type ServiceCpr = ReturnType<typeof serviceCpr>;
