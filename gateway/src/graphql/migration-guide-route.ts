import { readFileSync } from 'node:fs';
import type { Handler } from 'hono';

const guide = (file: string) => readFileSync(new URL(`../../../docs/${file}`, import.meta.url), 'utf8');

/** Read once at start: the guides ship with the gateway, the newest move first. */
const migrationGuide = `${guide('migration-v2-to-v30.md')}\n${guide('migration-v1-to-v2.md')}`;

/**
 * `GET /docs/migration`: the guides from GraphQL v2 to v30 and from v1 to v2, where a removed version's 410
 * points.
 *
 * @example
 * app.get('/docs/migration', migrationGuideRoute());
 */
export function migrationGuideRoute(): Handler {
  return (c) => c.body(migrationGuide, 200, { 'content-type': 'text/markdown; charset=utf-8' });
}
