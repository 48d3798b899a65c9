import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { browserSecurityHeaders } from '../browser/content-security-policy.js';
import { migrationGuideHtml, migrationGuideRoute } from './migration-guide-route.js';

const app = new Hono();
app.use('*', browserSecurityHeaders({ authServerUrl: 'http://localhost:8081/auth/' }));
app.get('/docs/migration', migrationGuideRoute());

const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET /docs/migration', () => {
  it('gives a browser the guide as an HTML page, with no script, under the site-wide CSP', async () => {
    const response = await app.request('/docs/migration', { headers: { accept: browserAccept } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(response.headers.get('vary')).toContain('Accept');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/);
    // The newest move first, then the older one, on one page.
    expect(html).toContain('<title>Migrating from GraphQL v2 to v30 (OS2mo&#39;s GraphQL)</title>');
    expect(html).toContain('<h1>Migrating from GraphQL v2 to v30 (OS2mo&#39;s GraphQL)</h1>');
    expect(html).toContain('<h1>Migrating from GraphQL v1 to v2</h1>');
    expect(html).toMatch(/<table>[\s\S]*<th>field<\/th>/);
    expect(html).toMatch(/<pre><code class="language-graphql">/);
    expect(html).not.toContain('<script');
  });

  it('gives anything else the Markdown', async () => {
    for (const accept of [undefined, '*/*', 'text/markdown', 'text/plain']) {
      const response = await app.request('/docs/migration', accept ? { headers: { accept } } : {});
      expect(response.headers.get('content-type'), String(accept)).toBe('text/markdown; charset=utf-8');
      const markdown = await response.text();
      expect(markdown).toMatch(/^# Migrating from GraphQL v2 to v30/);
      expect(markdown).toMatch(/^# Migrating from GraphQL v1 to v2/m);
    }
  });
});

describe('migrationGuideHtml', () => {
  it('escapes raw HTML and code, and keeps only web, site and anchor links', () => {
    const html = migrationGuideHtml(
      [
        '# A <b>title</b>',
        '',
        'Text with <script>alert(1)</script> and `<img src=x onerror=alert(1)>`.',
        '',
        '<iframe src="https://evil.example"></iframe>',
        '',
        '[ok](https://os2mo.example/docs) [here](#top) [bad](javascript:alert(1)) [data](data:text/html,x)',
        '',
        '```graphql',
        '{ a(filter: "<x>") }',
        '```',
      ].join('\n'),
    );
    expect(html).not.toMatch(/<script|<iframe|<img|<b>/);
    expect(html).toContain('<title>A &lt;b&gt;title&lt;/b&gt;</title>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<code>&lt;img src=x onerror=alert(1)&gt;</code>');
    expect(html).toContain('&lt;iframe src=&quot;https://evil.example&quot;&gt;');
    expect(html).toContain('<a href="https://os2mo.example/docs">ok</a>');
    expect(html).toContain('<a href="#top">here</a>');
    expect(html).not.toMatch(/href="(javascript|data):/);
    expect(html).toContain('{ a(filter: &quot;&lt;x&gt;&quot;) }');
  });
});
