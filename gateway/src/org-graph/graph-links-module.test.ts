import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { ContractOperation } from '../contract/contract-operations.js';
import { contractOperationsOf, type ContractPaths } from './contract-operations-module.js';
import { contractPath, generateCommand, meshConfigPath } from './generate.js';
import { graphLinks } from '../graphql/graph-links.js';
import {
  graphLinksFile,
  graphLinksModule,
  meshFieldNames,
  meshGraphLinks,
  type MeshConfig,
} from './graph-links-module.js';

const read = (operationId: string, path: string, flags: string[] = []): ContractOperation => ({
  operationId,
  method: 'GET',
  path,
  summary: '',
  flags,
});

const config: MeshConfig = {
  sources: [
    {
      transforms: [
        {
          rename: {
            renames: [
              { from: { type: 'ItUser' }, to: { type: 'ITUser' } },
              { from: { type: 'ItUser', field: 'org_unit' }, to: { type: 'ItUser', field: 'org_unit_ref' } },
              {
                from: { type: 'Leave', field: 'engagement' },
                to: { type: 'Leave', field: 'engagement_ref' },
              },
            ],
          },
        },
      ],
    },
  ],
};

describe("the Mesh peer's links module", () => {
  it(`is what graph-links.ts, .meshrc.yaml and the contract generate (else run \`${generateCommand}\`)`, async () => {
    const contract = parseYaml(await readFile(contractPath, 'utf8')) as ContractPaths;
    const meshConfig = parseYaml(await readFile(meshConfigPath, 'utf8')) as MeshConfig;
    const committed = await readFile(graphLinksFile, 'utf8');
    expect(
      committed === (await graphLinksModule(graphLinks, meshConfig, contractOperationsOf(contract))),
      `${graphLinksFile} differs from graph-links.ts: run \`${generateCommand}\` and commit the result.`,
    ).toBe(true);
  });

  it("names a record's field as Mesh's renames do, under the graph's name of the type", () => {
    expect(meshFieldNames(config)).toEqual(
      new Map([
        ['ITUser.org_unit', 'org_unit_ref'],
        ['Leave.engagement', 'engagement_ref'],
      ]),
    );
  });

  it("takes each read's operation id from the contract's path, and each field's Mesh name", () => {
    const operations = [
      read('unitLeaves', '/service/ou/{uuid}/details/leave'),
      read('unitManagers', '/service/ou/{uuid}/details/manager', ['at', 'inherit_manager']),
      read('readUnit', '/service/ou/{uuid}/'),
      read('readPerson', '/service/e/{uuid}/'),
    ];
    const links = {
      OrgUnit: {
        leaves: { kind: 'listing', of: 'unit', detail: 'leave' },
        managers: { kind: 'listing', of: 'unit', detail: 'manager', inherit: 'inherit_manager' },
        validities: { kind: 'custom', gateway: 'hierarchy', mesh: 'recipe' },
      },
      ITUser: {
        org_unit: { kind: 'reference', field: 'org_unit', target: 'OrgUnit' },
        employee: { kind: 'reference', field: 'person', target: 'Employee' },
        org_unit_uuid: { kind: 'key', field: 'org_unit' },
        validity: { kind: 'custom', gateway: 'entities', mesh: 'carried' },
      },
    } as const;
    expect(meshGraphLinks(links, config, operations)).toEqual({
      OrgUnit: {
        leaves: { kind: 'listing', operationId: 'unitLeaves' },
        managers: { kind: 'listing', operationId: 'unitManagers', inherit: 'inherit_manager' },
        validities: { kind: 'custom' },
      },
      ITUser: {
        org_unit: { kind: 'reference', field: 'org_unit_ref', operationId: 'readUnit' },
        employee: { kind: 'reference', field: 'person', operationId: 'readPerson' },
        org_unit_uuid: { kind: 'key', field: 'org_unit_ref' },
        validity: { kind: 'carried' },
      },
    });
  });

  it('refuses a listing the contract lacks, and an `inherit` flag its operation does not take', () => {
    const operations = [read('unitOwners', '/service/ou/{uuid}/details/owner', ['at'])];
    expect(() =>
      meshGraphLinks(
        { OrgUnit: { kles: { kind: 'listing', of: 'unit', detail: 'kle' } } },
        config,
        operations,
      ),
    ).toThrow('OrgUnit.kles: the contract has no GET /service/ou/{uuid}/details/kle.');
    expect(() =>
      meshGraphLinks(
        { OrgUnit: { owners: { kind: 'listing', of: 'unit', detail: 'owner', inherit: 'inherit_owner' } } },
        config,
        operations,
      ),
    ).toThrow('OrgUnit.owners: unitOwners has no `inherit_owner` flag.');
  });
});
