import { describe, expect, it } from 'vitest';
import type { RecordedRequest, WalkResult } from './drive-ui.js';
import { formatReport } from './report.js';

const aborted = 'fetch failed: signal is aborted without reason';

const request = (operationName: string, firstError?: string, step = 'unit page'): RecordedRequest => ({
  step,
  operationName,
  query: `query ${operationName} { version { mo_version } }`,
  variables: null,
  status: firstError?.startsWith('fetch failed') ? 0 : 200,
  ...(firstError === undefined ? {} : { firstError }),
});

const walk = (requests: RecordedRequest[]): WalkResult => ({
  user: 'alice',
  requests,
  failedSteps: [],
  notes: ['read back: the unit has the address ui-trial@example.org'],
  problems: [],
  offMachine: [],
});

const documents = { total: 1, valid: 1, failing: [], errorCounts: [] };

describe("the trial's report", () => {
  it('counts a request the UI cancelled itself among the failed ones, and says how many there were', () => {
    const report = formatReport(
      documents,
      [
        walk([
          request('Version'),
          request('FacetsAndClasses', aborted),
          request('Units', 'The query asks for too much at once.'),
        ]),
      ],
      [],
      new Map(),
    );
    expect(report).toContain('alice: GraphQL requests made 3, succeeded 1 (1 aborted by the UI itself)');
    expect(report).toContain('    Units: The query asks for too much at once.');
    expect(report).toContain('  read back: the unit has the address ui-trial@example.org');
  });

  it('says whether the page got the answer of a request the UI cancelled: sent again on that page, or not', () => {
    const report = formatReport(
      documents,
      [
        walk([
          request('FacetsAndClasses', aborted, 'rename-unit form'),
          request('FacetsAndClasses', undefined, 'rename-unit form'),
          request('Managers', aborted, 'unit page'),
          // The same operation answered on another page is not this page's answer.
          request('Managers', undefined, 'person page'),
        ]),
      ],
      [],
      new Map(),
    );
    expect(report).toContain('succeeded 2 (2 aborted by the UI itself)');
    expect(report).toContain(
      '    FacetsAndClasses (rename-unit form): cancelled by the UI, which sent it again on the page and got its answer',
    );
    expect(report).toContain(`    Managers (unit page): ${aborted}, and the page never got its answer`);
  });

  it('says nothing of aborts when the UI cancelled none', () => {
    const report = formatReport(documents, [walk([request('Version')])], [], new Map());
    expect(report).toContain('alice: GraphQL requests made 1, succeeded 1\n');
  });
});
