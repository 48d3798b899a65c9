/* global document, fetch */
// The migration workbench: sign in, compare the legacy requests for some units (or employees) with the one
// GraphQL query that replaces them, side by side, and show the shadow comparison's last mismatches.
import {
  hideStatus,
  loadStylesheet,
  pageElement,
  readPageConfig,
  referenceUnits,
  showStatus,
  startSession,
} from './session.js';

const config = readPageConfig();

/** A caught value's message: what failed says why in its own words. */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/** An element with attributes, listeners (`onclick`, …) and children; text is always text, never HTML. */
function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === undefined || value === null) continue;
    if (name === 'class') element.className = value;
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'object' ? child : String(child));
  }
  return element;
}

const number = new Intl.NumberFormat('en');
const formatBytes = (value) => `${number.format(value)} B`;
const formatMs = (value) => `${number.format(Math.round(value * 10) / 10)} ms`;
const plural = (count, noun) => `${number.format(count)} ${noun}${count === 1 ? '' : 's'}`;
const pretty = (value) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** A value of a difference on one line; a side without the entity says so. */
const shownValue = (difference, side) =>
  Object.hasOwn(difference, side) ? JSON.stringify(difference[side]) : '(absent)';

function table(id, header, rows) {
  return h(
    'table',
    { id, class: 'data' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        header.map((cell) => h('th', { scope: 'col' }, cell)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((row) =>
        h(
          'tr',
          {},
          row.map((cell) => h('td', {}, cell)),
        ),
      ),
    ),
  );
}

function differencesTable(id, differences) {
  return table(
    id,
    ['path', 'legacy', 'GraphQL'],
    differences.map((difference) => [
      h('code', {}, difference.path),
      h('code', { class: 'legacy-value' }, shownValue(difference, 'legacy')),
      h('code', { class: 'graphql-value' }, shownValue(difference, 'graphql')),
    ]),
  );
}

function verdictSection(report) {
  const { differences } = report.verdict;
  if (report.verdict.equal) {
    return h(
      'section',
      { id: 'verdict', class: 'verdict equal' },
      h('strong', {}, 'Equal'),
      ' — the legacy and the GraphQL data are the same.',
    );
  }
  return h(
    'section',
    { id: 'verdict', class: 'verdict different' },
    h('p', {}, h('strong', {}, 'Different'), ` — ${plural(differences.length, 'difference')}:`),
    differencesTable('differences', differences),
  );
}

function totalsSection(report) {
  const legacy = report.legacy.totals;
  const graphql = report.graphql.totals;
  const fewer = (before, after) => {
    const percent = before === 0 ? 0 : Math.round(((before - after) / before) * 100);
    return percent >= 0 ? `${percent}% fewer` : `${-percent}% more`;
  };
  return h(
    'section',
    { class: 'totals' },
    table(
      'totals',
      ['', 'legacy /service', `GraphQL ${report.version}`],
      [
        ['requests', number.format(legacy.requests), number.format(graphql.requests)],
        ['bytes', formatBytes(legacy.bytes), formatBytes(graphql.bytes)],
        ['time', formatMs(legacy.duration_ms), formatMs(graphql.duration_ms)],
      ],
    ),
    h(
      'p',
      { id: 'saving', class: 'saving' },
      `${plural(legacy.requests, 'legacy request')} → ${plural(graphql.requests, 'GraphQL request')} ` +
        `(${fewer(legacy.requests, graphql.requests)}), ${formatBytes(legacy.bytes)} → ${formatBytes(graphql.bytes)} ` +
        `(${fewer(legacy.bytes, graphql.bytes)}).`,
    ),
  );
}

function legacySide(report) {
  const { calls, totals } = report.legacy;
  return h(
    'section',
    { id: 'legacy-side', class: 'side' },
    h(
      'h2',
      {},
      `Legacy /service: ${plural(totals.requests, 'request')} in ${plural(totals.rounds, 'round')}`,
    ),
    table(
      'legacy-calls',
      ['round', 'method', 'path and raw JSON', 'status', 'bytes', 'time'],
      calls.map((call) => [
        call.round,
        call.method,
        h(
          'details',
          {},
          h('summary', {}, h('code', {}, call.path)),
          h('pre', { class: 'json' }, pretty(call.body)),
        ),
        call.status,
        formatBytes(call.bytes),
        formatMs(call.duration_ms),
      ]),
    ),
  );
}

function graphqlSide(report) {
  const { graphql } = report;
  const upstream = graphql.upstream;
  return h(
    'section',
    { id: 'graphql-side', class: 'side' },
    h('h2', {}, `GraphQL ${report.version}: 1 request`),
    h(
      'p',
      { class: 'request-line' },
      h('code', {}, `POST ${graphql.endpoint}`),
      ` · ${graphql.status} · ${formatBytes(graphql.totals.bytes)} · ${formatMs(graphql.totals.duration_ms)}`,
    ),
    h('h3', {}, 'Query'),
    h('pre', { id: 'graphql-query', class: 'query' }, graphql.request.query),
    h('h3', {}, 'Variables'),
    h('pre', { class: 'json' }, pretty(graphql.request.variables)),
    h('h3', {}, 'Response'),
    h('pre', { id: 'graphql-response', class: 'json' }, pretty(graphql.response)),
    h(
      'h3',
      {},
      upstream
        ? `Upstream trace: ${plural(upstream.requests, 'legacy call')} in ${plural(upstream.rounds, 'round')}`
        : 'Upstream trace: not available (GRAPHQL_UPSTREAM_TRACE=false)',
    ),
    upstream
      ? table(
          'upstream-calls',
          ['round', 'method', 'path', 'status', 'time'],
          upstream.calls.map((call) => [
            call.round,
            call.method,
            h('code', {}, call.path),
            call.status,
            formatMs(call.duration_ms),
          ]),
        )
      : null,
  );
}

function renderReport(container, report) {
  container.replaceChildren(
    verdictSection(report),
    totalsSection(report),
    h('div', { class: 'sides' }, legacySide(report), graphqlSide(report)),
    report.details ? detailsSection(report.details) : '',
  );
}

// Every detail listing of the units or people next to the GraphQL field serving it, per detail type.
function detailsSection(details) {
  const rows = details.types.map((type) => {
    const listings = details.listings.filter((listing) => listing.type === type);
    return [
      h('code', {}, `/details/${type}`),
      plural(listings.length, 'listing'),
      plural(
        listings.reduce((sum, listing) => sum + listing.records, 0),
        'record',
      ),
      listings.every((listing) => listing.equal) ? 'equal' : 'DIFFERENT',
    ];
  });
  return h(
    'section',
    { id: 'details', class: 'details' },
    h(
      'h2',
      {},
      `Detail listings: ${plural(details.legacy.requests, 'legacy request')} → 1 GraphQL request — ` +
        (details.verdict.equal ? 'equal' : plural(details.verdict.differences.length, 'difference')),
    ),
    table('detail-listings', ['listing', 'read', 'records', 'verdict'], rows),
    details.verdict.equal ? '' : differencesTable('detail-differences', details.verdict.differences),
  );
}

function renderShadow(container, snapshot) {
  const { counts } = snapshot;
  const summary = snapshot.enabled
    ? `Sampling ${Math.round(snapshot.sample_rate * 1000) / 10}% of unit, person and detail-listing reads against GraphQL ${snapshot.version}.`
    : 'Off: set SHADOW_SAMPLE_RATE (0–1) to compare a sample of live /service reads with GraphQL.';
  const countList = h(
    'ul',
    { id: 'shadow-counts', class: 'counts' },
    ['sampled', 'match', 'mismatch', 'error', 'dropped', 'pending'].map((name) =>
      h('li', { 'data-count': name }, h('strong', {}, number.format(counts[name])), ` ${name}`),
    ),
  );
  const mismatches = snapshot.mismatches.length
    ? table(
        'shadow-mismatches',
        ['time', 'request', 'differences'],
        snapshot.mismatches.map((mismatch) => [
          new Date(mismatch.time).toLocaleString('en-GB'),
          h('code', {}, `GET ${mismatch.path}`),
          differencesTable(null, mismatch.differences),
        ]),
      )
    : h('p', { id: 'shadow-mismatches-empty' }, `No mismatches among the last ${snapshot.keep} kept.`);
  const errors = snapshot.errors.length
    ? h(
        'details',
        { class: 'shadow-errors' },
        h('summary', {}, plural(snapshot.errors.length, 'recent error')),
        h(
          'ul',
          {},
          snapshot.errors.map((error) => h('li', {}, h('code', {}, `GET ${error.path}`), `: ${error.error}`)),
        ),
      )
    : null;
  // Reads the shadow cannot compare, said out loud: by endpoint and why.
  const skipped = snapshot.skipped?.length
    ? h(
        'details',
        { class: 'shadow-skipped' },
        h(
          'summary',
          {},
          `${plural(
            snapshot.skipped.reduce((sum, entry) => sum + entry.count, 0),
            'read',
          )} not compared`,
        ),
        table(
          'shadow-skipped',
          ['/service endpoint', 'why', 'reads'],
          snapshot.skipped.map((entry) => [
            h('code', {}, entry.endpoint),
            entry.reason,
            number.format(entry.count),
          ]),
        ),
      )
    : null;
  container.replaceChildren(h('p', {}, summary), countList, skipped ?? '', mismatches, errors ?? '');
}

/** An endpoint's query flags: which have a GraphQL equivalent, and which a sampled read proved (`*`). */
function coverageFlags(flags) {
  const names = (list) => list.map((flag) => `${flag.flag}${flag.proven ? '*' : ''}`).join(', ');
  const equivalent = flags.filter((flag) => flag.graphql !== null);
  const none = flags.filter((flag) => flag.graphql === null);
  return [
    equivalent.length ? `Flags with a GraphQL equivalent: ${names(equivalent)}.` : '',
    none.length ? ` Without one: ${names(none)}.` : '',
  ].join('');
}

/** Under the query: the version the read was proven on (the JSON's proven_on), and on v2 why not v30. */
function coverageNewest(entry) {
  if (!entry.proven_on) return null;
  const checked = entry.status === 'proven' ? 'Proven on' : 'Checked on';
  return entry.proven_on === 'v30'
    ? h('p', { class: 'coverage-newest' }, `${checked} v30 (OS2mo's GraphQL)`)
    : h('p', { class: 'coverage-newest' }, `${checked} v2, not v30: ${entry.newest?.reason ?? ''}`);
}

// The coverage report: one row per /service endpoint of the contract, with its GraphQL replacement.
function renderCoverage(container, report) {
  const { totals } = report;
  const reads = report.endpoints.filter((entry) => entry.method === 'GET').length;
  container.replaceChildren(
    h('p', { id: 'coverage-meaning' }, report.meaning),
    h(
      'p',
      { id: 'coverage-totals' },
      `Reads: ${reads} endpoints — ${totals.proven} proven, ${totals.empty} empty, ${totals.different} different, ` +
        `${totals['not covered']} not covered. Writes: ${totals.write}, listed with their mutations.`,
    ),
    table(
      'coverage-endpoints',
      ['status', '/service endpoint', 'GraphQL (v2), and the newest', 'why / what was shown'],
      report.endpoints.map((entry) => [
        entry.status,
        h('code', {}, `${entry.method} ${entry.path}`),
        [entry.graphql ? h('code', {}, entry.graphql) : '—', coverageNewest(entry)],
        [
          entry.reason,
          entry.differences.length ? differencesTable(null, entry.differences) : null,
          entry.flags?.length ? h('p', { class: 'coverage-flags' }, coverageFlags(entry.flags)) : null,
        ],
      ]),
    ),
  );
}

const svgNamespace = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes (presentation attributes, never `style`, so the CSP has nothing to allow). */
function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(svgNamespace, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    element.append(typeof child === 'object' ? child : String(child));
  }
  return element;
}

const clientColours = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#9467bd',
  '#ff7f0e',
  '#8c564b',
  '#e377c2',
  '#17becf',
];

/** Calls per client per day as stacked bars, one colour per client, drawn here (no chart library, no CDN). */
function usageChart(daily) {
  const days = [...new Set(daily.map((entry) => entry.day))].sort();
  const clients = [...new Set(daily.map((entry) => entry.client))].sort();
  if (days.length === 0) return h('p', { id: 'usage-chart-empty' }, 'No calls in the window.');
  const width = 640;
  const height = 220;
  const left = 44;
  const bottom = 24;
  const perDay = days.map((day) => daily.filter((entry) => entry.day === day));
  const highest = Math.max(...perDay.map((entries) => entries.reduce((sum, entry) => sum + entry.count, 0)));
  const slot = (width - left) / days.length;
  const scale = (height - bottom - 8) / highest;
  const colour = (client) => clientColours[clients.indexOf(client) % clientColours.length];
  const bars = perDay.flatMap((entries, index) => {
    let top = height - bottom;
    return clients.flatMap((client) => {
      const count = entries.find((entry) => entry.client === client)?.count ?? 0;
      if (count === 0) return [];
      const barHeight = Math.max(1, count * scale);
      top -= barHeight;
      return [
        svg(
          'rect',
          {
            class: 'usage-bar',
            x: left + index * slot + slot * 0.1,
            y: top,
            width: Math.max(1, slot * 0.8),
            height: barHeight,
            fill: colour(client),
            'data-client': client,
            'data-day': days[index],
            'data-count': count,
          },
          svg('title', {}, `${days[index]}: ${client} ${count} call${count === 1 ? '' : 's'}`),
        ),
      ];
    });
  });
  const axis = [
    svg('line', { x1: left, y1: height - bottom, x2: width, y2: height - bottom, stroke: '#555' }),
    svg('line', { x1: left, y1: 8, x2: left, y2: height - bottom, stroke: '#555' }),
    svg('text', { x: left - 6, y: 16, 'text-anchor': 'end', 'font-size': 11 }, number.format(highest)),
    svg('text', { x: left - 6, y: height - bottom, 'text-anchor': 'end', 'font-size': 11 }, '0'),
    svg('text', { x: left, y: height - 6, 'font-size': 11 }, days[0]),
    svg('text', { x: width, y: height - 6, 'text-anchor': 'end', 'font-size': 11 }, days[days.length - 1]),
  ];
  return h(
    'figure',
    { class: 'usage-chart' },
    svg(
      'svg',
      {
        id: 'usage-chart',
        viewBox: `0 0 ${width} ${height}`,
        role: 'img',
        'aria-label': `Calls per client per day, ${days[0]} to ${days[days.length - 1]}`,
      },
      axis,
      bars,
    ),
    h(
      'figcaption',
      {},
      'Calls per client per day: ',
      clients.map((client) =>
        h(
          'span',
          { class: 'usage-legend' },
          svg('svg', { width: 10, height: 10 }, svg('rect', { width: 10, height: 10, fill: colour(client) })),
          ` ${client} `,
        ),
      ),
    ),
  );
}

const clientCell = (target) =>
  target.clients.length === 0
    ? '—'
    : h(
        'ul',
        { class: 'usage-clients' },
        target.clients.map((client) =>
          h(
            'li',
            {},
            `${client.client}: ${plural(client.count, 'call')}, last ${client.last_seen ?? 'unknown'}`,
            client.flags.length && !(client.flags.length === 1 && client.flags[0] === 'none')
              ? ` (${client.flags.join(' | ')})`
              : '',
          ),
        ),
      );

// The retirement report: who still calls each /service endpoint, version and deprecated field, and verdicts.
function renderUsage(container, report) {
  const endpoints = [...report.endpoints].sort((a, b) => Number(b.count > 0) - Number(a.count > 0));
  container.replaceChildren(
    h('p', { id: 'usage-verdict', class: `verdict ${report.verdict.kind}` }, report.verdict.text),
    h('p', { id: 'usage-source' }, `Usage read from ${report.source.description}.`),
    usageChart(report.daily),
    table(
      'usage-endpoints',
      ['verdict', '/service endpoint', 'clients', 'replacement'],
      endpoints.map((entry) => [
        entry.verdict.text,
        h('code', {}, entry.endpoint),
        clientCell(entry),
        [
          entry.replacement.graphql ? h('code', {}, entry.replacement.graphql) : '—',
          entry.replacement.proven
            ? ' (proven)'
            : entry.replacement.unproven_flags.length
              ? ` (not proven for ${entry.replacement.unproven_flags.join(', ')})`
              : ` (${entry.replacement.status})`,
        ],
      ]),
    ),
    table(
      'usage-versions',
      ['verdict', 'GraphQL version', 'clients'],
      report.versions.map((entry) => [entry.verdict.text, entry.version, clientCell(entry)]),
    ),
    report.deprecated_fields.length
      ? table(
          'usage-deprecated-fields',
          ['verdict', 'deprecated field', 'clients'],
          report.deprecated_fields.map((entry) => [
            entry.verdict.text,
            [h('code', {}, `${entry.version} ${entry.coordinate}`), ` ${entry.reason}`],
            clientCell(entry),
          ]),
        )
      : h('p', {}, 'No deprecated fields in the served versions.'),
    h(
      'p',
      { id: 'usage-tools' },
      `Left out: ${plural(report.tool_requests, 'request')} of the comparison tools (workbench, compare CLI, coverage).`,
    ),
  );
}

function subjectForm(onCompare, defaultUnits) {
  const values = { units: defaultUnits.join('\n'), employees: '' };
  let subject = 'units';
  const uuids = h('textarea', {
    id: 'subject-uuids',
    rows: 3,
    spellcheck: 'false',
    placeholder: 'One UUID per line, or separated by commas',
  });
  uuids.value = values.units;
  const choose = (next) => {
    values[subject] = uuids.value;
    subject = next;
    uuids.value = values[subject];
  };
  const version = h(
    'select',
    { id: 'version' },
    config.versions.map((name) => h('option', { value: name, selected: name === config.version }, name)),
  );
  const button = h('button', { id: 'compare', type: 'submit' }, 'Compare');
  const form = h(
    'form',
    {
      id: 'comparison-form',
      class: 'workbench-form',
      onsubmit: (event) => {
        event.preventDefault();
        const list = uuids.value.split(/[\s,]+/).filter((item) => item.length > 0);
        button.disabled = true;
        onCompare({ [subject]: list, version: version.value }).finally(() => {
          button.disabled = false;
        });
      },
    },
    h(
      'fieldset',
      { class: 'subject' },
      h('legend', {}, 'Compare'),
      ['units', 'employees'].map((name) =>
        h(
          'label',
          {},
          h('input', {
            type: 'radio',
            name: 'subject',
            value: name,
            checked: name === 'units',
            onchange: () => choose(name),
          }),
          name === 'units' ? ' Org units' : ' Employees',
        ),
      ),
    ),
    h('label', { class: 'uuids' }, 'UUIDs', uuids),
    h('label', {}, 'Version ', version),
    button,
  );
  return form;
}

/** A JSON request with the user's bearer token; a failure answers with the gateway's own sentence. */
async function callGateway(session, url, init = {}) {
  const response = await fetch(url, {
    ...init,
    headers: {
      accept: 'application/json',
      authorization: await session.authorization(),
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.description ?? `${url} answered ${response.status}`);
  return body;
}

try {
  const session = await startSession();
  showStatus('Loading the workbench…');
  const [units] = await Promise.all([
    referenceUnits(session, config.endpoints.referenceUnits),
    loadStylesheet(config.assets.stylesheet),
  ]);

  const tool = pageElement('browser-tool');
  tool.classList.add('workbench');
  const comparison = h('section', { id: 'comparison', 'aria-live': 'polite' });
  const shadow = h('div', { id: 'shadow-body' }, 'Loading…');
  const refreshShadow = async () => {
    // The last snapshot leaves the page at once, so nothing reads stale counts while the new one loads.
    shadow.replaceChildren(h('p', { class: 'running' }, 'Loading…'));
    try {
      renderShadow(shadow, await callGateway(session, config.endpoints.shadow));
    } catch (error) {
      shadow.replaceChildren(
        h('p', { class: 'failed' }, `The shadow comparison cannot be shown: ${messageOf(error)}`),
      );
    }
  };
  const compare = async (request) => {
    comparison.replaceChildren(h('p', { class: 'running' }, 'Comparing…'));
    try {
      const report = await callGateway(session, config.endpoints.compare, {
        method: 'POST',
        body: JSON.stringify(request),
      });
      renderReport(comparison, report);
    } catch (error) {
      comparison.replaceChildren(h('p', { id: 'comparison-error', class: 'failed' }, messageOf(error)));
    }
    await refreshShadow();
  };

  const coverage = h('div', { id: 'coverage-body' }, 'Not run yet: it reads a sample of every endpoint.');
  const runCoverage = async () => {
    coverage.replaceChildren(h('p', { class: 'running' }, 'Reading every endpoint both ways…'));
    try {
      renderCoverage(coverage, await callGateway(session, config.endpoints.coverage));
    } catch (error) {
      coverage.replaceChildren(
        h(
          'p',
          { id: 'coverage-error', class: 'failed' },
          `The coverage report cannot be made: ${messageOf(error)}`,
        ),
      );
    }
  };

  const usage = h(
    'div',
    { id: 'usage-body' },
    'Not run yet: it reads the usage and runs the coverage report.',
  );
  const runUsage = async () => {
    usage.replaceChildren(h('p', { class: 'running' }, 'Reading who calls what, and proving replacements…'));
    try {
      renderUsage(usage, await callGateway(session, config.endpoints.usage));
    } catch (error) {
      usage.replaceChildren(
        h(
          'p',
          { id: 'usage-error', class: 'failed' },
          `The retirement report cannot be made: ${messageOf(error)}`,
        ),
      );
    }
  };

  tool.replaceChildren(
    h(
      'header',
      { class: 'workbench-intro' },
      h('h1', {}, 'Migration workbench'),
      h(
        'p',
        {},
        'The legacy /service requests an integration makes for some data, next to the one GraphQL query that ' +
          'replaces them: what each costs, and whether the data is the same.',
      ),
    ),
    subjectForm(compare, units),
    comparison,
    h(
      'section',
      { id: 'shadow', class: 'shadow' },
      h(
        'h2',
        {},
        'Shadow comparison of live /service reads ',
        h('button', { id: 'shadow-refresh', type: 'button', onclick: () => void refreshShadow() }, 'Refresh'),
      ),
      shadow,
    ),
    h(
      'section',
      { id: 'coverage', class: 'coverage' },
      h(
        'h2',
        {},
        'Coverage of every /service endpoint ',
        h('button', { id: 'coverage-run', type: 'button', onclick: () => void runCoverage() }, 'Run'),
      ),
      coverage,
    ),
    h(
      'section',
      { id: 'usage', class: 'usage' },
      h(
        'h2',
        {},
        'Who still calls what ',
        h('button', { id: 'usage-run', type: 'button', onclick: () => void runUsage() }, 'Run'),
      ),
      usage,
    ),
  );
  hideStatus();
  await refreshShadow();
} catch (error) {
  showStatus(
    `The workbench could not start: ${error instanceof Error ? messageOf(error) : String(error)}`,
    true,
  );
}
