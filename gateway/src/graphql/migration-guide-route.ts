import { readFileSync } from 'node:fs';
import type { Handler } from 'hono';

/** Read once at start: the guide ships with the gateway. */
const migrationGuide = readFileSync(new URL('../../../docs/migration-v1-to-v2.md', import.meta.url), 'utf8');

/**
 * `GET /docs/migration`: the guide from GraphQL v1 to v2, where a removed version's 410 points.
 *
 * @example
 * app.get('/docs/migration', migrationGuideRoute());
 */
export function migrationGuideRoute(): Handler {
  return (c) => c.body(migrationGuide, 200, { 'content-type': 'text/markdown; charset=utf-8' });
}
