import { describe, expect, it } from 'vitest';
import { contractOperations } from './contract-operations.generated.js';
import { endpointTemplates } from './endpoint-templates.js';

const templates = endpointTemplates(contractOperations);
const uuid = '0a000000-0000-4000-8000-000000000001';

describe('endpointTemplates (the contract)', () => {
  it.each([
    ['GET', `/service/ou/${uuid}/details/manager`, 'GET /service/ou/{uuid}/details/manager'],
    ['HEAD', `/service/ou/${uuid}/details/manager`, 'GET /service/ou/{uuid}/details/manager'],
    ['GET', `/service/ou/${uuid}/`, 'GET /service/ou/{uuid}/'],
    ['GET', '/service/ou/autocomplete/', 'GET /service/ou/autocomplete/'],
    ['GET', '/service/ou/ancestor-tree', 'GET /service/ou/ancestor-tree'],
    ['GET', `/service/o/${uuid}/ou/`, 'GET /service/o/{org}/ou/'],
    ['POST', '/service/ou/create', 'POST /service/ou/create'],
    // Spelt as a backend still routes them (routed-path.ts): trailing slash or none, HEAD, the UUID's case.
    ['GET', `/service/ou/${uuid}/details/manager/`, 'GET /service/ou/{uuid}/details/manager'],
    ['GET', `/service/ou/${uuid}`, 'GET /service/ou/{uuid}/'],
    ['HEAD', `/service/e/${uuid}`, 'GET /service/e/{uuid}/'],
    ['GET', `/service/e/${uuid.toUpperCase()}/`, 'GET /service/e/{uuid}/'],
    ['GET', '/service/o', 'GET /service/o/'],
    ['POST', '/service/details/create/', 'POST /service/details/create'],
    ['GET', '/service/ou/autocomplete', 'GET /service/ou/autocomplete/'],
    // A router reads `create` as the unit's parameter here, as it would `create/`.
    ['GET', '/service/ou/create', 'GET /service/ou/{uuid}/'],
  ])('%s %s is %s', (method, path, template) => {
    expect(templates.match(method, path)).toBe(template);
  });

  it.each([
    ['DELETE', `/service/ou/${uuid}/`],
    ['GET', '/service/ou//details/manager'],
    ['GET', '/service/nothing/here/'],
  ])('%s %s is no operation of the contract', (method, path) => {
    expect(templates.match(method, path)).toBeUndefined();
  });

  it('keeps every operation apart once trailing slashes are ignored', () => {
    const routed = contractOperations.map(
      (operation) => `${operation.method} ${operation.path.replace(/\/+$/, '')}`,
    );
    expect(new Set(routed).size).toBe(routed.length);
  });
});
