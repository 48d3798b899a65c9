/* global document, fetch */
// The migration workbench: sign in, compare the legacy requests for some units (or employees) with the one
// GraphQL query that replaces them, side by side, and show the shadow comparison's last mismatches.
import {
  hideStatus,
  loadStylesheet,
  readPageConfig,
  referenceUnits,
  showStatus,
  startSession,
} from './session.js';

const config = readPageConfig();

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
  container.replaceChildren(h('p', {}, summary), countList, mismatches, errors ?? '');
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
      ['status', '/service endpoint', 'GraphQL (v2)', 'why / what was shown'],
      report.endpoints.map((entry) => [
        entry.status,
        h('code', {}, `${entry.method} ${entry.path}`),
        entry.graphql ? h('code', {}, entry.graphql) : '—',
        entry.differences.length ? [entry.reason, differencesTable(null, entry.differences)] : entry.reason,
      ]),
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

  const tool = document.getElementById('browser-tool');
  tool.classList.add('workbench');
  const comparison = h('section', { id: 'comparison', 'aria-live': 'polite' });
  const shadow = h('div', { id: 'shadow-body' }, 'Loading…');
  const refreshShadow = async () => {
    try {
      renderShadow(shadow, await callGateway(session, config.endpoints.shadow));
    } catch (error) {
      shadow.replaceChildren(
        h('p', { class: 'failed' }, `The shadow comparison cannot be shown: ${error.message}`),
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
      comparison.replaceChildren(h('p', { id: 'comparison-error', class: 'failed' }, error.message));
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
          `The coverage report cannot be made: ${error.message}`,
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
  );
  hideStatus();
  await refreshShadow();
} catch (error) {
  showStatus(
    `The workbench could not start: ${error instanceof Error ? error.message : String(error)}`,
    true,
  );
}
