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

/** Beside the proven v2 query: the newest version that answers the read, or why v2 is the newest. */
export function newestLine(entry: CoverageEntry): string | undefined {
  const { newest } = entry;
  if (newest === undefined) return undefined;
  const checked = entry.status === 'proven' ? 'proven on v2' : 'checked on v2';
  return newest.version === 'v30'
    ? `${checked}; in v30: ${newest.query}`
    : `${checked}; v2 is the newest: ${newest.reason}`;
}

/** The coverage report as the CLI prints it: one line per endpoint, then what the words mean and the totals. */
export function formatCoverage(report: CoverageReport, gatewayUrl: string): string {
  const rows = report.endpoints.map((entry) => [
    entry.status,
    `${entry.method} ${entry.path}`,
    entry.graphql ?? '—',
    entry.reason,
  ]);
  const header = ['status', '/service endpoint', 'GraphQL (v2) that replaces it', 'why / what was shown'];
  const widths = header
    .slice(0, 2)
    .map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const indent = (text: string) => `\n  ${' '.repeat(widths[0]! + widths[1]! + 4)}${text}`;
  const line = (row: string[], index: number) => {
    const flags = flagsLine(report.endpoints[index]!);
    const newest = newestLine(report.endpoints[index]!);
    return `  ${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}${indent(row[3]!)}${newest ? indent(newest) : ''}${flags ? indent(flags) : ''}`;
  };
  const lines = [
    `Coverage of the legacy contract's /service endpoints by GraphQL v2 at ${gatewayUrl}`,
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
      `${totals['not covered']} not covered. Writes: ${totals.write} (listed with their mutations, not compared). ` +
      `${totals.reads} requests made.`,
  );
  lines.push(
    totals.different === 0
      ? 'Verdict: EQUAL — every covered read endpoint gave the same data both ways.'
      : `Verdict: DIFFERENT — ${totals.different} endpoint${totals.different === 1 ? '' : 's'} gave different data.`,
  );
  return `${lines.join('\n')}\n`;
}
