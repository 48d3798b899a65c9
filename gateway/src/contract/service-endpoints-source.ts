import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import type { ServiceEndpoint } from './service-endpoints.js';

export const generatedEndpointsFile = fileURLToPath(
  new URL('./service-endpoints.generated.ts', import.meta.url),
);

/** The committed module's text for these endpoints, formatted as the repository formats TypeScript. */
export async function generatedEndpointsSource(endpoints: ServiceEndpoint[]): Promise<string> {
  const text = [
    '// Generated from openapi/legacy-service.yaml by gateway/src/contract/service-endpoints-cli.ts: do not edit.',
    "import type { ServiceEndpoint } from './service-endpoints.js';",
    '',
    `export const serviceEndpoints: readonly ServiceEndpoint[] = ${JSON.stringify(endpoints)};`,
    '',
  ].join('\n');
  const options = await resolveConfig(generatedEndpointsFile);
  return format(text, { ...options, filepath: generatedEndpointsFile });
}
