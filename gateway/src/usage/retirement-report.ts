import type { GraphQLSchema } from 'graphql';
import type { ComparisonTransport } from '../comparison/gateway-transport.js';
import { prometheusUsage } from './prometheus-usage.js';
import type { UsageConfig } from './usage-config.js';
import type { UsageRecorder } from './usage-recorder.js';
import { usageReport, type UsageReport } from './usage-report.js';

export interface RetirementReportOptions {
  config: UsageConfig;
  recorder: UsageRecorder;
  versions: { version: string; schema: GraphQLSchema }[];
  /** Reaches the gateway for the coverage report (the caller's token, marked as the tools' own reads). */
  transport: ComparisonTransport;
  now: Date;
}

/**
 * The retirement report as `GET /migration/usage` serves it: usage from Prometheus when `USAGE_PROMETHEUS_URL`
 * is set (else this replica's counters), joined with a fresh coverage report for the replacements.
 */
export async function retirementReport(options: RetirementReportOptions): Promise<UsageReport> {
  const { config } = options;
  const { coverageReport } = await import('../comparison/coverage/coverage.js');
  const [usage, coverage] = await Promise.all([
    config.prometheusUrl === undefined
      ? Promise.resolve(options.recorder.snapshot())
      : prometheusUsage({ url: config.prometheusUrl, windowSeconds: config.windowSeconds, now: options.now }),
    coverageReport({ transport: options.transport }),
  ]);
  return usageReport({ usage, coverage, versions: options.versions, now: options.now });
}
