import type { GraphQLSchema } from 'graphql';
import type { CoverageReport } from '../coverage/coverage.js';
import { prometheusUsage } from './prometheus-usage.js';
import type { UsageConfig } from '../../usage/usage-config.js';
import type { UsageRecorder } from '../../usage/usage-recorder.js';
import { usageReport, type UsageReport } from './usage-report.js';

export interface RetirementReportOptions {
  config: UsageConfig;
  recorder: UsageRecorder;
  versions: { version: string; schema: GraphQLSchema }[];
  /** The coverage report the verdicts rest on (the workbench's, kept per data version). */
  coverage: () => Promise<CoverageReport>;
  now: Date;
}

/**
 * The retirement report as `GET /migration/usage` serves it: usage from Prometheus when `USAGE_PROMETHEUS_URL`
 * is set (else this replica's counters), joined with the coverage report for the replacements.
 */
export async function retirementReport(options: RetirementReportOptions): Promise<UsageReport> {
  const { config } = options;
  const [usage, coverage] = await Promise.all([
    config.prometheusUrl === undefined
      ? Promise.resolve(options.recorder.snapshot())
      : prometheusUsage({
          url: config.prometheusUrl,
          authorization: config.prometheusAuthorization,
          windowSeconds: config.windowSeconds,
          now: options.now,
        }),
    options.coverage(),
  ]);
  return usageReport({ usage, coverage, versions: options.versions, now: options.now });
}
