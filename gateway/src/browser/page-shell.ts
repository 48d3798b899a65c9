import { browserAssetUrl, type BrowserAssetPath } from './browser-assets.js';

export interface NavigationLink {
  label: string;
  href: string;
  current: boolean;
}

export interface BrowserPageOptions {
  title: string;
  navigation: NavigationLink[];
  /** The page's module script; it signs in first, then starts the tool. */
  script: BrowserAssetPath;
  /** What the script needs to know from the server, embedded as JSON. */
  config: Record<string, unknown>;
}

/** The gateway's keycloak-js adapter configuration (`/idp.json`), read by the page before signing in. */
export const ADAPTER_CONFIG_URL = '/idp.json';

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => htmlEscapes[char]!);

/** JSON that stays data inside a `<script>` element whatever the strings in it contain. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The frame both browser tools share: a bar with the tools, the signed-in user and a logout button, a status
 * line, and the element the tool renders into. Every script and stylesheet comes from this origin; the
 * import map lets the page scripts import `keycloak-js` by its package name.
 */
export function renderBrowserPage(options: BrowserPageOptions): string {
  const links = options.navigation
    .map(
      (link) =>
        `<a href="${escapeHtml(link.href)}"${link.current ? ' aria-current="page"' : ''}>${escapeHtml(link.label)}</a>`,
    )
    .join('\n        ');
  const importMap = { imports: { 'keycloak-js': browserAssetUrl('keycloak-js/keycloak.js') } };
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(options.title)}</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${browserAssetUrl('client/browser-pages.css')}" />
    <script type="importmap">${scriptJson(importMap)}</script>
    <script type="application/json" id="page-config">${scriptJson({ ...options.config, adapterConfig: ADAPTER_CONFIG_URL })}</script>
    <script type="module" src="${browserAssetUrl(options.script)}"></script>
  </head>
  <body>
    <header class="tool-bar">
      <span class="product">Organisation gateway</span>
      <nav aria-label="Browser tools">
        ${links}
      </nav>
      <span id="session" class="session" hidden>
        Signed in as <strong id="session-user"></strong>
        <button id="logout" type="button">Log out</button>
      </span>
    </header>
    <p id="page-status" class="page-status" role="status">Signing in at the identity provider…</p>
    <noscript><p class="page-status failed">GraphiQL and Voyager need JavaScript.</p></noscript>
    <main id="browser-tool" class="browser-tool"></main>
  </body>
</html>
`;
}
