import { ComparisonError, errorSentence } from './comparison-error.js';
import { compareDetailListings, type DetailComparisonReport } from './detail-comparison.js';
import { findDifferences, type Difference } from './differences.js';
import type { ComparisonTransport } from './gateway-transport.js';
import { field, isRecord } from './normal-form.js';
import {
  comparisonQuery,
  graphqlNormalForm,
  runLegacyPlan,
  type ComparisonSubject,
  type ComparisonVersion,
  type GraphQLRequestBody,
  type LegacyCallRecord,
} from './subjects.js';

/** The legacy calls GraphQL made for its one request, from its `extensions.upstream`. */
export interface UpstreamTrace {
  requests: number;
  rounds: number;
  calls: { method: string; path: string; status: number; duration_ms: number; round: number }[];
}

export interface ComparisonReport {
  subject: ComparisonSubject;
  version: ComparisonVersion;
  legacy: {
    calls: LegacyCallRecord[];
    totals: { requests: number; rounds: number; bytes: number; duration_ms: number };
  };
  graphql: {
    endpoint: string;
    request: GraphQLRequestBody;
    status: number;
    response: unknown;
    /** `null` when the gateway does not give out upstream traces (`GRAPHQL_UPSTREAM_TRACE=false`). */
    upstream: UpstreamTrace | null;
    totals: { requests: 1; bytes: number; duration_ms: number };
  };
  /** The reference view's verdict; `details` has its own. */
  verdict: { equal: boolean; differences: Difference[] };
  /** Every detail listing of the units or people against the GraphQL field serving it (unless turned off). */
  details: DetailComparisonReport | null;
}

export interface CompareOptions {
  subject: ComparisonSubject;
  version: ComparisonVersion;
  transport: ComparisonTransport;
  /**
   * Runs after the legacy reads and before the GraphQL query. Tests change a legacy record here to prove
   * that a difference is reported.
   */
  betweenReads?: () => void | Promise<void>;
  /** Also compare every detail listing (default true). */
  details?: boolean;
}

function upstreamTrace(body: unknown): UpstreamTrace | null {
  const upstream = field(field(body, 'extensions'), 'upstream');
  if (!isRecord(upstream) || !Array.isArray(upstream['calls'])) return null;
  return upstream as unknown as UpstreamTrace;
}

/**
 * Reads the same data both ways — first the legacy requests an integration makes by hand, then the one
 * GraphQL query that replaces them — and compares the two in their comparable form.
 *
 * @example
 * const report = await compareLegacyWithGraphQL({
 *   subject: { kind: 'org_units', uuids },
 *   version: 'v2',
 *   transport: gatewayTransport({ baseUrl: 'http://localhost:8080', authorization: `Bearer ${token}` }),
 * });
 * if (!report.verdict.equal) console.log(report.verdict.differences);
 */
export async function compareLegacyWithGraphQL(options: CompareOptions): Promise<ComparisonReport> {
  const { subject, version, transport } = options;

  const legacyStarted = performance.now();
  const legacy = await runLegacyPlan(subject, (path) => transport.getService(path));
  const legacyMs = performance.now() - legacyStarted;

  // The detail listings are read after the reference plan, and their GraphQL query asked before the
  // reference one, so `betweenReads` still falls between every legacy read and every GraphQL query.
  let details: DetailComparisonReport | null = null;
  if (options.details ?? true) {
    details = await compareDetailListings({
      owner: subject.kind,
      uuids: subject.uuids,
      version,
      transport,
      betweenReads: options.betweenReads,
    });
  } else {
    await options.betweenReads?.();
  }

  const request = comparisonQuery(subject, version);
  const graphqlStarted = performance.now();
  const response = await transport.postGraphQL(version, request);
  const graphqlMs = performance.now() - graphqlStarted;
  const endpoint = `/graphql/${version}`;
  const reason = errorSentence(response.body);
  if (response.status === 401 || response.status === 403) {
    throw new ComparisonError(
      'unauthorized',
      `POST ${endpoint} answered ${response.status}${reason ? `: ${reason.replace(/\.$/, '')}` : ''}.`,
    );
  }
  if (response.status !== 200 || !isRecord(field(response.body, 'data')) || reason !== undefined) {
    throw new ComparisonError(
      'failed',
      `POST ${endpoint} answered ${response.status}${reason ? ` with the error "${reason}"` : ' without data'}.`,
    );
  }

  const differences = findDifferences(
    legacy.normal,
    graphqlNormalForm(subject, version, field(response.body, 'data')),
  );
  return {
    subject,
    version,
    legacy: {
      calls: legacy.calls,
      totals: {
        requests: legacy.calls.length,
        rounds: legacy.calls.reduce((most, call) => Math.max(most, call.round), 0),
        bytes: legacy.calls.reduce((sum, call) => sum + call.bytes, 0),
        duration_ms: legacyMs,
      },
    },
    graphql: {
      endpoint,
      request,
      status: response.status,
      response: response.body,
      upstream: upstreamTrace(response.body),
      totals: { requests: 1, bytes: response.bytes, duration_ms: graphqlMs },
    },
    verdict: { equal: differences.length === 0, differences },
    details,
  };
}
