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
  ])('%s %s is %s', (method, path, template) => {
    expect(templates.match(method, path)).toBe(template);
  });

  it.each([
    ['GET', '/service/ou/create'],
    ['DELETE', `/service/ou/${uuid}/`],
    ['GET', `/service/ou/${uuid}`],
    ['GET', '/service/ou//details/manager'],
    ['GET', '/service/nothing/here/'],
  ])('%s %s is no operation of the contract', (method, path) => {
    expect(templates.match(method, path)).toBeUndefined();
  });
});
