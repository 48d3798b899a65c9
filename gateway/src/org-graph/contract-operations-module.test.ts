import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  contractOperationsFile,
  contractOperationsModule,
  contractOperationsOf,
  type ContractPaths,
} from './contract-operations-module.js';
import { contractPath, generateCommand } from './generate.js';
import { repositoryRoot } from './mesh-build.js';

describe("the contract's operations module", () => {
  it(`is what the contract generates (else run \`${generateCommand}\`)`, async () => {
    const contract = parseYaml(await readFile(contractPath, 'utf8')) as ContractPaths;
    const committed = await readFile(contractOperationsFile, 'utf8');
    expect(
      committed === (await contractOperationsModule(contract, relative(repositoryRoot, contractPath))),
      `${contractOperationsFile} differs from the contract: run \`${generateCommand}\` and commit the result.`,
    ).toBe(true);
  });

  it('holds every /service operation with its flags, the path-level ones and $refs included', () => {
    const contract: ContractPaths = {
      components: { parameters: { at: { name: 'at', in: 'query' } } },
      paths: {
        '/health': { get: { operationId: 'health' } },
        '/service/ou/{uuid}/details/x': {
          parameters: [{ name: 'uuid', in: 'path' }, { $ref: '#/components/parameters/at' }],
          get: {
            operationId: 'listX',
            summary: 'List X',
            parameters: [{ name: 'validity', in: 'query' }, { $ref: '#/components/parameters/at' }],
            'x-always-empty': 'OS2mo keeps no X',
          },
          post: { operationId: 'createX' },
        },
      },
    };
    expect(contractOperationsOf(contract)).toEqual([
      {
        operationId: 'listX',
        method: 'GET',
        path: '/service/ou/{uuid}/details/x',
        summary: 'List X',
        flags: ['at', 'validity'],
        alwaysEmpty: 'OS2mo keeps no X',
      },
      {
        operationId: 'createX',
        method: 'POST',
        path: '/service/ou/{uuid}/details/x',
        summary: '',
        flags: ['at'],
      },
    ]);
  });
});
