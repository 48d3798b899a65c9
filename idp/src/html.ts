import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);
}

const STYLE = `
  body { font-family: system-ui, sans-serif; margin: 0; background: #f3f4f6; color: #111827; }
  main { max-width: 24rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 0.5rem;
         box-shadow: 0 1px 3px rgb(0 0 0 / 0.2); }
  h1 { font-size: 1.5rem; margin: 0 0 1.5rem; }
  .realm { margin: 0 0 0.25rem; color: #4b5563; }
  label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
  input { box-sizing: border-box; width: 100%; padding: 0.5rem; font-size: 1rem; border: 1px solid #6b7280;
          border-radius: 0.25rem; }
  input:focus, button:focus, a:focus { outline: 3px solid #2563eb; outline-offset: 2px; }
  button { margin-top: 1.5rem; width: 100%; padding: 0.6rem; font-size: 1rem; color: #fff; background: #1d4ed8;
           border: 0; border-radius: 0.25rem; cursor: pointer; }
  .error { padding: 0.75rem; color: #7f1d1d; background: #fee2e2; border-left: 4px solid #b91c1c; }
  .note { margin-top: 2rem; font-size: 0.875rem; color: #4b5563; }
`;

/** A complete page: no scripts, no external resources. `body` must already be escaped. */
export function page(options: { title: string; realm: string; body: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="realm">Realm ${escapeHtml(options.realm)}</p>
${options.body}
<p class="note">Development identity provider with Keycloak's paths. Not for production use.</p>
</main>
</body>
</html>
`;
}

export function messagePage(options: {
  title: string;
  realm: string;
  message: string;
  error?: boolean;
}): string {
  const role = options.error ? ' class="error" role="alert"' : '';
  return page({
    title: options.title,
    realm: options.realm,
    body: `<h1>${escapeHtml(options.title)}</h1>\n<p${role}>${escapeHtml(options.message)}</p>`,
  });
}

/** Sends a page with headers that keep it out of caches and other sites' frames. */
export function htmlResponse(c: Context, html: string, status: ContentfulStatusCode = 200): Response {
  c.header('Cache-Control', 'no-store');
  c.header('X-Content-Type-Options', 'nosniff');
  c.header('X-Frame-Options', 'SAMEORIGIN');
  c.header('Referrer-Policy', 'no-referrer');
  // No form-action: browsers apply it to the redirect that follows the login post, which leaves this origin.
  c.header(
    'Content-Security-Policy',
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'",
  );
  return c.html(html, status);
}
