/**
 * Writes `service-endpoints.generated.ts` from `openapi/legacy-service.yaml`: the `/service` operations and their
 * query flags that usage attributes calls to. Run it after changing the contract:
 * `npx tsx gateway/src/contract/service-endpoints-cli.ts` (the drift test names this command).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { contractFile } from './contract-operations.js';
import { generatedEndpointsFile, generatedEndpointsSource } from './service-endpoints-source.js';
import { serviceEndpointsFromContract } from './service-endpoints.js';

const endpoints = serviceEndpointsFromContract(await readFile(contractFile, 'utf8'));
await writeFile(generatedEndpointsFile, await generatedEndpointsSource(endpoints));
console.log(`wrote ${endpoints.length} endpoints to ${generatedEndpointsFile}`);
