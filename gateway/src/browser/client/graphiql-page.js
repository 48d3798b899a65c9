/* global window, localStorage */
// The GraphiQL page: sign in, then Yoga's GraphiQL for one version with a fetcher that sends the bearer token.
import {
  hideStatus,
  loadScript,
  loadStylesheet,
  pageElement,
  postGraphQL,
  readPageConfig,
  referenceUnits,
  showStatus,
  startSession,
} from './session.js';

/** The reference query with the backend's reference units in place of the marker line. */
function withUnits(query, marker, units) {
  return query.replace(new RegExp(`^( *)${marker}$`, 'm'), (_line, indent) =>
    units.length > 0
      ? units.map((uuid) => `${indent}"${uuid}"`).join('\n')
      : `${indent}# No unit with a manager was found: put org unit UUIDs here.`,
  );
}

/** GraphiQL keeps tabs and history per origin; a prefix per version keeps v1's tabs out of v2. */
function versionStorage(version) {
  const prefix = `org-gateway:${version}:`;
  const ownKeys = () => Object.keys(localStorage).filter((key) => key.startsWith(prefix));
  return {
    getItem: (key) => localStorage.getItem(prefix + key),
    setItem: (key, value) => localStorage.setItem(prefix + key, value),
    removeItem: (key) => localStorage.removeItem(prefix + key),
    get length() {
      return ownKeys().length;
    },
    clear: () => ownKeys().forEach((key) => localStorage.removeItem(key)),
  };
}

const config = readPageConfig();
try {
  const session = await startSession();
  showStatus(`Loading GraphiQL for ${config.version}…`);
  // Monaco starts its language workers from these same-origin files.
  window.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: (_moduleId, label) =>
      config.assets.workers[label] ?? config.assets.workers.editorWorkerService,
  };
  const [units] = await Promise.all([
    config.defaultQuery === null ? [] : referenceUnits(session, config.referenceUnits.endpoint),
    loadStylesheet(config.assets.stylesheet),
    loadScript(config.assets.script),
  ]);
  window.YogaGraphiQL.renderYogaGraphiQL(pageElement('browser-tool'), {
    title: `Organisation gateway ${config.version}`,
    ...(config.defaultQuery === null
      ? {}
      : { defaultQuery: withUnits(config.defaultQuery, config.referenceUnits.marker, units) }),
    fetcher: (params, options) => postGraphQL(session, config.endpoint, params, options?.headers ?? {}),
    storage: versionStorage(config.version),
    // Yoga would copy the query into the address; a reload must stay a page request, not a GET query.
    onEditQuery: () => {},
  });
  hideStatus();
} catch (error) {
  showStatus(`GraphiQL could not start: ${error instanceof Error ? error.message : String(error)}`, true);
}
