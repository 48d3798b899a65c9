import type { DocumentCount } from './ui-documents.js';
import type { RecordedRequest, WalkResult } from './drive-ui.js';

/** The legacy cost of one page: its queries replayed with the upstream trace. */
export interface PageCost {
  page: string;
  /** Legacy calls of all its queries together. */
  calls: number;
  /** The most dependent rounds any one of its queries took (the UI sends them at once). */
  rounds: number;
  operations: { name: string; calls: number; rounds: number }[];
}

const succeeded = (request: RecordedRequest) => request.status === 200 && request.firstError === undefined;
/** A request the UI cancelled itself (its `AbortController`, when a newer request replaces it). */
const abortedByUi = (request: RecordedRequest) =>
  request.firstError?.startsWith('fetch failed: ') === true && /abort/i.test(request.firstError);

/**
 * Whether the UI sent a cancelled request's operation again on the same page and got its answer: the UI's
 * queries rerun as a form's fields change and cancel the run before (naldo's `createQuery`), so a cancel that
 * a later answer replaced cost the page nothing.
 */
function answeredLater(requests: readonly RecordedRequest[], index: number): boolean {
  const cancelled = requests[index]!;
  return requests
    .slice(index + 1)
    .some(
      (later) =>
        later.operationName === cancelled.operationName && later.step === cancelled.step && succeeded(later),
    );
}

/** The first error of each failing operation, once per operation and error. */
function failingOperations(requests: readonly RecordedRequest[]): string[] {
  const seen = new Set<string>();
  requests.forEach((request, index) => {
    if (succeeded(request)) return;
    const error = request.firstError ?? `HTTP ${request.status}`;
    const line = !abortedByUi(request)
      ? `${request.operationName}: ${error}`
      : answeredLater(requests, index)
        ? `${request.operationName} (${request.step}): cancelled by the UI, which sent it again on the page and got its answer`
        : `${request.operationName} (${request.step}): ${error}, and the page never got its answer`;
    seen.add(line);
  });
  return [...seen].sort();
}

/** The trial's figures as the lead's note takes them. */
export function formatReport(
  documents: DocumentCount,
  walks: readonly WalkResult[],
  costs: readonly PageCost[],
  notServedReasons: ReadonlyMap<string, string>,
): string {
  const lines: string[] = [];
  lines.push(`UI documents: ${documents.valid} of ${documents.total} validate against the gateway's v29`);
  for (const failing of documents.failing) {
    const reason = notServedReasons.get(`${failing.file}#${failing.name}`);
    lines.push(
      `  ${failing.name} (${failing.file}): ${failing.errors[0]}${failing.errors.length > 1 ? ` (+${failing.errors.length - 1} more)` : ''}`,
    );
    if (reason) lines.push(`    the gateway says: ${reason}`);
  }
  lines.push('  errors by count:');
  for (const [message, count] of documents.errorCounts) lines.push(`    ${count}\t${message}`);

  for (const walk of walks) {
    const ok = walk.requests.filter(succeeded).length;
    lines.push('');
    const aborted = walk.requests.filter(abortedByUi).length;
    lines.push(
      `${walk.user}: GraphQL requests made ${walk.requests.length}, succeeded ${ok}${aborted > 0 ? ` (${aborted} aborted by the UI itself)` : ''}`,
    );
    lines.push(
      walk.failedSteps.length === 0
        ? '  no page or tab showed "Something went wrong"'
        : `  pages/tabs showing "Something went wrong" (${walk.failedSteps.length}): ${walk.failedSteps.map((step) => step.step).join('; ')}`,
    );
    for (const note of walk.notes) lines.push(`  ${note}`);
    for (const problem of walk.problems) lines.push(`  could not: ${problem}`);
    if (walk.offMachine.length > 0)
      lines.push(`  blocked requests off the machine: ${walk.offMachine.join(', ')}`);
    const failing = failingOperations(walk.requests);
    if (failing.length > 0) lines.push(`  failing operations (${failing.length}):`);
    for (const line of failing) lines.push(`    ${line}`);
  }

  if (costs.length > 0) {
    lines.push('');
    lines.push("Legacy calls of each page's queries (replayed as alice with X-Upstream-Trace: 1):");
    for (const cost of [...costs].sort((a, b) => b.calls - a.calls)) {
      lines.push(`  ${cost.page}: ${cost.calls} calls, at most ${cost.rounds} rounds`);
      for (const operation of [...cost.operations].sort((a, b) => b.calls - a.calls)) {
        lines.push(`    ${operation.name}: ${operation.calls} calls in ${operation.rounds} rounds`);
      }
    }
  }
  return lines.join('\n');
}
