/* global document, window, fetch */
// Browser module shared by the GraphiQL and Voyager pages: sign-in, the user bar, and loading vendor bundles.
import Keycloak from 'keycloak-js';

/** The element the page shell always renders with this id; without it the page is broken, so say which. */
export function pageElement(id) {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`The page has no #${id}.`);
  return element;
}

/** What the server embedded into the page (endpoint, version, asset URLs). */
export function readPageConfig() {
  return JSON.parse(pageElement('page-config').textContent ?? 'null');
}

/** Shows a one-line status above the tool; `failed` marks it as an error. */
export function showStatus(message, failed = false) {
  const status = pageElement('page-status');
  status.textContent = message;
  status.classList.toggle('failed', failed);
  status.hidden = false;
}

export function hideStatus() {
  pageElement('page-status').hidden = true;
}

/** Reads the adapter configuration the gateway publishes and turns it into keycloak-js options. */
async function adapterOptions() {
  const url = readPageConfig().adapterConfig;
  const response = await fetch(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const idp = await response.json();
  return { url: idp['auth-server-url'].replace(/\/+$/, ''), realm: idp.realm, clientId: idp.resource };
}

function showUser(keycloak) {
  const claims = keycloak.tokenParsed ?? {};
  pageElement('session-user').textContent = claims.preferred_username ?? claims.sub ?? 'unknown';
  pageElement('logout').addEventListener('click', () => {
    void keycloak.logout({ redirectUri: window.location.href });
  });
  pageElement('session').hidden = false;
}

/**
 * Signs in at the identity provider (authorization code flow with PKCE). On the first visit keycloak-js
 * navigates to the login form and this promise never settles; after the return trip it resolves with
 * `authorization()`, which gives a fresh `Bearer` header value for each request.
 */
export async function startSession() {
  const keycloak = new Keycloak(await adapterOptions());
  await keycloak.init({ onLoad: 'login-required', pkceMethod: 'S256', checkLoginIframe: false });
  showUser(keycloak);
  return {
    async authorization() {
      try {
        await keycloak.updateToken(30);
      } catch {
        // The refresh token has expired or the session ended: sign in again (this navigates away).
        showStatus('Your session has ended; signing in again…');
        await keycloak.login();
      }
      return `Bearer ${keycloak.token}`;
    },
  };
}

/** Adds a classic script (a vendor bundle that defines a global) and waits until it has run. */
export function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve(undefined);
    script.onerror = () => reject(new Error(`${src} did not load`));
    document.head.append(script);
  });
}

/** Adds a stylesheet and waits until it applies. */
export function loadStylesheet(href) {
  return new Promise((resolve, reject) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.onload = () => resolve(undefined);
    link.onerror = () => reject(new Error(`${href} did not load`));
    document.head.append(link);
  });
}

/** A POST of one GraphQL request with the user's bearer token; `extraHeaders` (from GraphiQL's editor) win. */
export async function postGraphQL(session, endpoint, body, extraHeaders = {}) {
  const headers = new window.Headers({
    accept: 'application/graphql-response+json, application/json',
    'content-type': 'application/json',
    authorization: await session.authorization(),
  });
  for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, String(value));
  const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
  return response.json();
}

/**
 * The units the tools open with, found by the gateway at its backend (the first units with a manager).
 * An empty list when none can be found: the page still opens, with nothing filled in.
 */
export async function referenceUnits(session, endpoint) {
  try {
    const response = await fetch(endpoint, {
      headers: { accept: 'application/json', authorization: await session.authorization() },
    });
    const body = response.ok ? await response.json() : null;
    return Array.isArray(body?.units) ? body.units : [];
  } catch {
    return [];
  }
}
