/* global window */
// The Voyager page: sign in, introspect the newest version with the bearer token, and draw its graph.
import {
  hideStatus,
  loadScript,
  loadStylesheet,
  pageElement,
  postGraphQL,
  readPageConfig,
  showStatus,
  startSession,
} from './session.js';

const config = readPageConfig();
try {
  const session = await startSession();
  showStatus(`Loading the ${config.version} schema…`);
  await Promise.all([loadStylesheet(config.assets.stylesheet), loadScript(config.assets.script)]);
  const { renderVoyager, voyagerIntrospectionQuery } = window.GraphQLVoyager;
  const introspection = await postGraphQL(session, config.endpoint, { query: voyagerIntrospectionQuery });
  if (introspection.errors?.length || !introspection.data) {
    throw new Error(introspection.errors?.[0]?.message ?? 'the introspection query returned no data');
  }
  renderVoyager(pageElement('browser-tool'), { introspection, hideVoyagerLogo: true });
  hideStatus();
} catch (error) {
  showStatus(`Voyager could not start: ${error instanceof Error ? error.message : String(error)}`, true);
}
