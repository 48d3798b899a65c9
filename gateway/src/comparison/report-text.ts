import type { ComparisonReport } from './compare.js';
import type { DetailComparisonReport } from './detail-comparison.js';
import { detailField } from './detail-listings.js';
import type { Difference } from './differences.js';

type Cell = string | number;

/** Columns padded to their widest cell; numbers right-aligned. */
function table(header: string[], rows: Cell[][], indent = '  '): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  const numeric = header.map(
    (_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === 'number'),
  );
  return cells
    .map((row) =>
      (
        indent +
        row
          .map((cell, column) =>
            numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
          )
          .join('  ')
      ).trimEnd(),
    )
    .join('\n');
}

const ms = (value: number) => Math.round(value * 10) / 10;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** "83% fewer", or "61% more" when GraphQL costs more than the legacy reads. */
function change(before: number, after: number): string {
  const percent = before === 0 ? 0 : Math.round(((before - after) / before) * 100);
  return percent >= 0 ? `${percent}% fewer` : `${-percent}% more`;
}

/** A value of a difference as one short line; a side without the entity says so. */
function shown(difference: Difference, side: 'legacy' | 'graphql'): string {
  if (!Object.hasOwn(difference, side)) return '(absent)';
  const text = JSON.stringify(difference[side]);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The comparison as the CLI prints it: the legacy calls, the GraphQL request, totals, saving and verdict. */
export function formatReport(report: ComparisonReport, gatewayUrl: string): string {
  const { legacy, graphql, verdict } = report;
  const subject = `${report.subject.uuids.length} ${report.subject.kind === 'org_units' ? 'org unit' : 'employee'}${report.subject.uuids.length === 1 ? '' : 's'}`;
  const lines: string[] = [
    `Legacy /service compared with GraphQL ${report.version} for ${subject} at ${gatewayUrl}`,
    '',
    `Legacy requests (through the gateway's /service passthrough), ${legacy.totals.rounds} dependent round${legacy.totals.rounds === 1 ? '' : 's'}:`,
    table(
      ['round', 'method', 'path', 'status', 'bytes', 'ms'],
      legacy.calls.map((call) => [
        call.round,
        call.method,
        call.path,
        call.status,
        call.bytes,
        ms(call.duration_ms),
      ]),
    ),
    '',
    'GraphQL request:',
    table(
      ['method', 'path', 'status', 'bytes', 'ms', 'upstream'],
      [
        [
          'POST',
          graphql.endpoint,
          graphql.status,
          graphql.totals.bytes,
          ms(graphql.totals.duration_ms),
          graphql.upstream
            ? `${plural(graphql.upstream.requests, 'legacy call')} in ${plural(graphql.upstream.rounds, 'round')}`
            : 'no trace (GRAPHQL_UPSTREAM_TRACE=false)',
        ],
      ],
    ),
    '',
    table(
      ['', 'legacy', 'GraphQL'],
      [
        ['requests', legacy.totals.requests, graphql.totals.requests],
        ['bytes', legacy.totals.bytes, graphql.totals.bytes],
        ['time (ms)', ms(legacy.totals.duration_ms), ms(graphql.totals.duration_ms)],
      ],
    ),
    '',
    `Saving: ${plural(legacy.totals.requests, 'legacy request')} → ${plural(graphql.totals.requests, 'GraphQL request')} (${change(legacy.totals.requests, graphql.totals.requests)}); ` +
      `${legacy.totals.bytes} bytes → ${graphql.totals.bytes} (${change(legacy.totals.bytes, graphql.totals.bytes)}).`,
    '',
  ];
  if (verdict.equal) {
    lines.push('Verdict: EQUAL — the legacy and the GraphQL data are the same.');
  } else {
    const count = verdict.differences.length;
    lines.push(`Verdict: DIFFERENT — ${count} difference${count === 1 ? '' : 's'}:`);
    lines.push(
      table(
        ['path', 'legacy', 'GraphQL'],
        verdict.differences.map((difference) => [
          difference.path,
          shown(difference, 'legacy'),
          shown(difference, 'graphql'),
        ]),
      ),
    );
  }
  if (report.details) lines.push('', ...detailLines(report.details));
  return `${lines.join('\n')}\n`;
}

/** The detail listings' section: per detail type, the listings read, their records and whether all were equal. */
function detailLines(details: DetailComparisonReport): string[] {
  const byType = details.types.map((type) => {
    const listings = details.listings.filter((listing) => listing.type === type);
    return [
      `/details/${type}`,
      detailField(details.owner, type),
      listings.length,
      listings.reduce((sum, listing) => sum + listing.records, 0),
      listings.every((listing) => listing.equal) ? 'equal' : 'DIFFERENT',
    ];
  });
  const lines = [
    `Detail listings: ${plural(details.legacy.requests, 'legacy request')} in one round → ${plural(details.graphql.requests, 'GraphQL request')} (${details.legacy.bytes} bytes → ${details.graphql.bytes}):`,
    table(['listing', 'GraphQL field', 'listings', 'records', 'verdict'], byType),
    '',
  ];
  if (details.verdict.equal) {
    lines.push('Detail verdict: EQUAL — every detail listing has the same records as its GraphQL field.');
  } else {
    const count = details.verdict.differences.length;
    lines.push(`Detail verdict: DIFFERENT — ${count} difference${count === 1 ? '' : 's'}:`);
    lines.push(
      table(
        ['path', 'legacy', 'GraphQL'],
        details.verdict.differences.map((difference) => [
          difference.path,
          shown(difference, 'legacy'),
          shown(difference, 'graphql'),
        ]),
      ),
    );
  }
  return lines;
}
