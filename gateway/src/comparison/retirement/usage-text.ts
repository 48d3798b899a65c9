import type { UsageReport, UsageTarget } from './usage-report.js';

const clientsText = (target: UsageTarget) =>
  target.clients.length === 0
    ? ''
    : target.clients
        .map(
          (client) =>
            `${client.client} ${client.count}× (last ${client.last_seen ?? 'unknown'}; ${client.flags.join(' | ')})`,
        )
        .join('; ');

/** The retirement report as `npm run compare -- --usage` prints it: endpoints, versions, fields, verdict. */
export function formatUsage(report: UsageReport, gatewayUrl: string): string {
  const lines = [
    `Who still calls what at ${gatewayUrl}, ${report.generated_at}`,
    `Usage read from ${report.source.description}.`,
    '',
    '/service endpoints (calls; clients with count, last call and flags; replacement; verdict):',
  ];
  // Called endpoints first, then the rest in the contract's order.
  const endpoints = [...report.endpoints].sort((a, b) => Number(b.count > 0) - Number(a.count > 0));
  for (const endpoint of endpoints) {
    const replacement = endpoint.replacement;
    const proof = replacement.proven
      ? 'proven'
      : replacement.unproven_flags.length > 0
        ? `not proven for ${replacement.unproven_flags.join(', ')}`
        : replacement.status;
    lines.push(`  ${endpoint.endpoint}  ${endpoint.count} call${endpoint.count === 1 ? '' : 's'}`);
    if (endpoint.clients.length > 0) lines.push(`      clients: ${clientsText(endpoint)}`);
    lines.push(`      replacement: ${replacement.graphql ?? '—'} (${proof})`);
    lines.push(`      verdict: ${endpoint.verdict.text}`);
  }
  lines.push('', 'GraphQL versions:');
  for (const version of report.versions) {
    lines.push(
      `  ${version.version}  ${version.count} request${version.count === 1 ? '' : 's'}  ${version.verdict.text}`,
    );
    if (version.clients.length > 0) lines.push(`      clients: ${clientsText(version)}`);
  }
  lines.push('', 'Deprecated fields:');
  if (report.deprecated_fields.length === 0) lines.push('  none in the served versions');
  for (const field of report.deprecated_fields) {
    lines.push(
      `  ${field.version} ${field.coordinate}  ${field.count}×  ${field.verdict.text}  (${field.reason})`,
    );
    if (field.clients.length > 0) lines.push(`      clients: ${clientsText(field)}`);
  }
  lines.push(
    '',
    `Left out: ${report.tool_requests} request${report.tool_requests === 1 ? '' : 's'} of the comparison tools (workbench, compare CLI, coverage).`,
    `Verdict: ${report.verdict.text}`,
  );
  return `${lines.join('\n')}\n`;
}
