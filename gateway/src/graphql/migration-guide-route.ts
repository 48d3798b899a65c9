import { readFileSync } from 'node:fs';
import type { Context, Handler } from 'hono';
import { accepts } from 'hono/accepts';
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../browser/page-shell.js';

const guide = (file: string) => readFileSync(new URL(`../../../docs/${file}`, import.meta.url), 'utf8');

/** Read once at start: the guides ship with the gateway, the newest move first. */
const migrationGuide = `${guide('migration-v2-to-v30.md')}\n${guide('migration-v1-to-v2.md')}`;

/** Links that stay links: web addresses, paths on this site and anchors; anything else (`javascript:`) is text. */
const safeHref = /^(https?:\/\/|\/|#|\.{0,2}\/?[A-Za-z0-9_-][^:]*$)/i;

/**
 * The guide as HTML, by `marked` (GitHub-flavoured Markdown: the tables and fenced code the guide uses).
 * `marked` escapes text and code itself; raw HTML in the Markdown is shown as text, not passed through, and
 * links with another scheme become plain text, so the page holds no markup the guide did not mean.
 */
export function migrationGuideHtml(markdown: string): string {
  const marked = new Marked({
    gfm: true,
    renderer: {
      html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
      link(token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        if (!safeHref.test(token.href)) return text;
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        return `<a href="${escapeHtml(token.href)}"${title}>${text}</a>`;
      },
    },
  });
  const body = marked.parse(markdown, { async: false });
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? 'Migration guide';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
pre { background: #f4f4f4; padding: 0.75rem; overflow-x: auto; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; vertical-align: top; }
</style>
</head>
<body>
${body}</body>
</html>
`;
}

let page: string | undefined;

/** A browser (`Accept` preferring `text/html`) gets the page; anything else, `curl` included, the Markdown. */
const wantsHtml = (c: Context) =>
  accepts(c, { header: 'Accept', supports: ['text/markdown', 'text/html'], default: 'text/markdown' }) ===
  'text/html';

/**
 * `GET /docs/migration`: the guides from GraphQL v2 to v30 and from v1 to v2, where a removed version's 410
 * points. Browsers get them as HTML (rendered on the first such request), other clients as Markdown.
 *
 * @example
 * app.get('/docs/migration', migrationGuideRoute());
 */
export function migrationGuideRoute(): Handler {
  return (c) => {
    c.header('Vary', 'Accept');
    if (wantsHtml(c)) return c.html((page ??= migrationGuideHtml(migrationGuide)));
    return c.body(migrationGuide, 200, { 'content-type': 'text/markdown; charset=utf-8' });
  };
}
