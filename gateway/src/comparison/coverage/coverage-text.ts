import { writeProof } from './write-replacements.js';
import type { CoverageEntry, CoverageReport } from './coverage.js';

/** The flags line of an endpoint: which have a GraphQL equivalent (`*` where a sampled read proved it). */
export function flagsLine(entry: CoverageEntry): string | undefined {
  const flags = entry.flags ?? [];
  if (flags.length === 0) return undefined;
  const withEquivalent = flags.filter((flag) => flag.graphql !== null);
  const without = flags.filter((flag) => flag.graphql === null);
  const names = (list: typeof flags) =>
    list.map((flag) => `${flag.flag}${flag.proven ? '*' : ''}`).join(', ');
  return [
    withEquivalent.length > 0 ? `flags with a GraphQL equivalent: ${names(withEquivalent)}` : undefined,
    without.length > 0 ? `without one: ${names(without)}` : undefined,
  ]
    .filter((part) => part !== undefined)
    .join('; ');
}

/** The version a read's proof ran on, in the words the JSON's `proven_on` and the workbench's page use. */
export function provenOnLine(entry: CoverageEntry): string | undefined {
  if (entry.proven_on === undefined) return undefined;
  const checked = entry.status === 'proven' ? 'proven on' : 'checked on';
  if (entry.proven_on === 'v30') return `${checked} v30 (OS2mo's GraphQL)`;
  const reason = entry.newest?.version === 'v2' ? entry.newest.reason : '';
  return `${checked} v2, not v30: ${reason}`;
}

/** The coverage report as the CLI prints it: one line per endpoint, then what the words mean and the totals. */
export function formatCoverage(report: CoverageReport, gatewayUrl: string): string {
  const rows = report.endpoints.map((entry) => [
    entry.status,
    `${entry.method} ${entry.path}`,
    entry.graphql ?? '—',
    entry.reason,
  ]);
  const header = [
    'status',
    '/service endpoint',
    'GraphQL that replaces it (v30 unless named v2)',
    'why / what was shown',
  ];
  const widths = header
    .slice(0, 2)
    .map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const indent = (text: string) => `\n  ${' '.repeat(widths[0]! + widths[1]! + 4)}${text}`;
  const line = (row: string[], index: number) => {
    const flags = flagsLine(report.endpoints[index]!);
    const newest = provenOnLine(report.endpoints[index]!);
    return `  ${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}${indent(row[3]!)}${newest ? indent(newest) : ''}${flags ? indent(flags) : ''}`;
  };
  const lines = [
    `Coverage of the legacy contract's /service endpoints by GraphQL ${report.version} (OS2mo's) at ${gatewayUrl}`,
    '',
    report.meaning,
    'Flags: the query parameters an endpoint takes; * marks one a sampled read used and proved equal.',
    '',
    `  ${header[0]!.padEnd(widths[0]!)}  ${header[1]!.padEnd(widths[1]!)}  ${header[2]}`,
    ...rows.map(line),
    '',
  ];
  for (const entry of report.endpoints.filter((item) => item.differences.length > 0)) {
    lines.push(`Differences at ${entry.method} ${entry.path}:`);
    for (const difference of entry.differences.slice(0, 20)) {
      const side = (value: unknown, present: boolean) => (present ? JSON.stringify(value) : '(absent)');
      lines.push(
        `  ${difference.path}  ${side(difference.legacy, Object.hasOwn(difference, 'legacy'))}  ${side(difference.graphql, Object.hasOwn(difference, 'graphql'))}`,
      );
    }
    lines.push('');
  }
  const { totals } = report;
  const reads = report.endpoints.filter((entry) => entry.method === 'GET').length;
  const provenEmpty = report.endpoints.filter((entry) => entry.emptyByContract !== undefined).length;
  const onEmptiness = provenEmpty > 0 ? ` (${provenEmpty} of them empty by the contract)` : '';
  lines.push(
    `Reads: ${reads} endpoints — ${totals.proven} proven${onEmptiness}, ${totals.empty} empty, ${totals.different} different, ` +
      `${totals['not covered']} not covered. Writes: ${totals.write} (listed with their v30 mutations, each proven by the suite's ${writeProof}, not sampled here). ` +
      `${totals.reads} requests made.`,
  );
  const onV30 = report.endpoints.filter(
    (entry) => entry.proven_on === 'v30' && entry.status === 'proven',
  ).length;
  lines.push(`Proven on v30: ${onV30} of ${reads} reads; the rest name why v2 answers them.`);
  lines.push(
    totals.different === 0
      ? 'Verdict: EQUAL — every covered read endpoint gave the same data both ways.'
      : `Verdict: DIFFERENT — ${totals.different} endpoint${totals.different === 1 ? '' : 's'} gave different data.`,
  );
  return `${lines.join('\n')}\n`;
}
