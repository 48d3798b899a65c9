import type { Handler } from 'hono';
import type { Logger } from '../observability/logger.js';

/** One dependency's state; the reason is for operators and never names an internal address. */
export type CheckResult = { ok: true } | { ok: false; reason: string };

/** A readiness check: resolves within `timeoutMs` (it is cut off otherwise). */
export type ReadinessCheck = (timeoutMs: number) => Promise<CheckResult>;

export interface ReadinessOptions {
  /** Named checks, run in parallel; the names appear in the response body. */
  checks: Record<string, ReadinessCheck>;
  /** Longest wait for any one check. */
  timeoutMs: number;
  /** Told when readiness changes, with the failed checks' reasons. */
  logger?: Logger;
}

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, { status: 'ok' } | { status: 'failed'; reason: string }>;
}

function bounded(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  const answer = check(timeoutMs).catch((): CheckResult => ({
    ok: false,
    reason: 'the check failed unexpectedly',
  }));
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/**
 * Whether this gateway can serve requests: every check passes within the timeout. Probes that arrive
 * while a round of checks runs share its answer, so a busy load balancer cannot multiply the work.
 *
 * @example
 * const readiness = createReadiness({ checks: { legacy: legacyProbe(legacy, defaultLegacyProbe) }, timeoutMs: 2000 });
 * const report = await readiness.check();
 */
export function createReadiness(options: ReadinessOptions) {
  let running: Promise<ReadinessReport> | undefined;
  let lastStatus: ReadinessReport['status'] | undefined;

  async function run(): Promise<ReadinessReport> {
    const names = Object.keys(options.checks);
    const results = await Promise.all(names.map((name) => bounded(options.checks[name]!, options.timeoutMs)));
    const report: ReadinessReport = { status: 'ready', checks: {} };
    results.forEach((result, index) => {
      report.checks[names[index]!] = result.ok
        ? { status: 'ok' }
        : { status: 'failed', reason: result.reason };
      if (!result.ok) report.status = 'not_ready';
    });
    if (report.status !== lastStatus) {
      if (report.status === 'ready') options.logger?.info({ checks: report.checks }, 'ready');
      else options.logger?.warn({ checks: report.checks }, 'not ready');
      lastStatus = report.status;
    }
    return report;
  }

  return {
    check(): Promise<ReadinessReport> {
      running ??= run().finally(() => {
        running = undefined;
      });
      return running;
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;

/**
 * `GET /health/ready`: 200 `{status: 'ready', checks}`, or 503 `{status: 'not_ready', checks}` naming the
 * failed checks. No token needed; nothing in it names an internal address.
 *
 * @example
 * app.get('/health/ready', readinessRoute(readiness));
 */
export function readinessRoute(readiness: Readiness): Handler {
  return async (c) => {
    const report = await readiness.check();
    c.header('Cache-Control', 'no-store');
    return c.json(report, report.status === 'ready' ? 200 : 503);
  };
}
