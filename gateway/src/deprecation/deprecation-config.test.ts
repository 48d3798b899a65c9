import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contractOperations } from '../contract/contract-operations.generated.js';
import { ConfigError, readGatewayConfig } from '../config.js';
import { DeprecationFileError, parseDeprecationFile } from './deprecation-config.js';

const operations = contractOperations;
const parse = (text: string) => parseDeprecationFile(text, operations);

describe('parseDeprecationFile', () => {
  it('reads endpoints, prefixes and versions, with the file-wide exempt clients added to each', () => {
    const settings = parse(`
guide: https://wiki.example.org/migration
exemptClients: [payroll-sync]
endpoints:
  - endpoint: GET /service/ou/{uuid}/details/manager
    deprecated: 2026-09-01
    sunset: 2027-03-01T12:00:00+01:00
    brownouts: [{ from: "2027-02-01T09:00:00Z", to: "2027-02-01T10:00:00Z" }]
    exemptClients: [reporting]
  - endpoint: /service/e/*
    deprecated: 2026-09-01
    retired: true
    replacement: employees { objects { uuid } }
versions:
  - version: v1
    deprecated: 2026-09-01
`);
    expect(settings.guideUrl).toBe('https://wiki.example.org/migration');
    expect(settings.deprecateGatewayVersions).toBe(true);
    expect(settings.endpoints).toEqual([
      {
        endpoint: 'GET /service/ou/{uuid}/details/manager',
        method: 'GET',
        template: '/service/ou/{uuid}/details/manager',
        deprecated: new Date('2026-09-01T00:00:00Z'),
        sunset: new Date('2027-03-01T11:00:00Z'),
        brownouts: [{ from: new Date('2027-02-01T09:00:00Z'), to: new Date('2027-02-01T10:00:00Z') }],
        retired: false,
        exemptClients: ['payroll-sync', 'reporting'],
      },
      {
        endpoint: '/service/e/*',
        method: undefined,
        prefix: '/service/e/',
        deprecated: new Date('2026-09-01T00:00:00Z'),
        brownouts: [],
        retired: true,
        replacement: 'employees { objects { uuid } }',
        exemptClients: ['payroll-sync'],
      },
    ]);
    expect(settings.versions).toEqual([
      {
        version: 'v1',
        deprecated: new Date('2026-09-01T00:00:00Z'),
        brownouts: [],
        retired: false,
        exemptClients: ['payroll-sync'],
      },
    ]);
  });

  it('reads JSON as well', () => {
    const settings = parse(
      '{"deprecateGatewayVersions": false, "versions": [{"version": "v2", "deprecated": "2026-09-01"}]}',
    );
    expect(settings.deprecateGatewayVersions).toBe(false);
    expect(settings.versions[0]?.version).toBe('v2');
  });

  it.each([
    [
      'endpoints: [{ endpoint: "GET /service/ou/{uuid}/detail/manager", deprecated: 2026-09-01 }]',
      /^endpoints\[0\]\.endpoint: "GET \/service\/ou\/\{uuid\}\/detail\/manager" is not an operation of the contract/,
    ],
    [
      'endpoints: [{ endpoint: "POST /service/ou/{uuid}/details/manager", deprecated: 2026-09-01 }]',
      /is not an operation of the contract/,
    ],
    [
      'endpoints: [{ endpoint: /graphql/v1, deprecated: 2026-09-01 }]',
      /^endpoints\[0\]\.endpoint: must be an endpoint of the contract/,
    ],
    ['endpoints: [{ endpoint: FETCH /service/o/, deprecated: 2026-09-01 }]', /the method must be one of/],
    ['endpoints: [{ endpoint: GET /service/o/ }]', /^endpoints\[0\]\.deprecated: must be a date/],
    [
      'endpoints: [{ endpoint: GET /service/o/, deprecated: 1 March 2027 }]',
      /^endpoints\[0\]\.deprecated: must be a date such as 2027-03-01/,
    ],
    [
      'endpoints: [{ endpoint: GET /service/o/, deprecated: 2027-03-01, sunset: 2027-01-01 }]',
      /^endpoints\[0\]\.sunset: must not be before "deprecated"/,
    ],
    [
      'endpoints: [{ endpoint: GET /service/o/, deprecated: 2027-03-01, brownout: [] }]',
      /^endpoints\[0\]: unknown key "brownout"/,
    ],
    [
      'endpoints: [{ endpoint: GET /service/o/, deprecated: 2027-03-01, brownouts: [{ from: 2027-04-01, to: 2027-03-31 }] }]',
      /^endpoints\[0\]\.brownouts\[0\]: "to" must be after "from"/,
    ],
    [
      'endpoints: [{ endpoint: GET /service/o/, deprecated: 2027-03-01, retired: yes }]',
      /^endpoints\[0\]\.retired: must be true or false/,
    ],
    [
      'versions: [{ version: one, deprecated: 2027-03-01 }]',
      /^versions\[0\]\.version: must be a version such as v1/,
    ],
    ['exemptClients: payroll', /^exemptClients: must be a list of client ids/],
    ['guide: /docs', /^guide: must be an http\(s\) URL/],
    ['deprecate: [v1]', /^the file: unknown key "deprecate"/],
    ['- just a list', /^must hold an object/],
    ['endpoints: [', /^is not valid YAML or JSON/],
  ])('refuses %j, saying where', (text, message) => {
    expect(() => parse(text)).toThrow(DeprecationFileError);
    expect(() => parse(text)).toThrow(message);
  });
});

describe('DEPRECATION_CONFIG', () => {
  const folder = mkdtempSync(join(tmpdir(), 'deprecation-config-'));
  const file = (name: string, text: string) => {
    const path = join(folder, name);
    writeFileSync(path, text);
    return path;
  };

  it('is read at start', () => {
    const path = file('good.yaml', 'endpoints: [{ endpoint: GET /service/o/, deprecated: 2026-09-01 }]');
    expect(readGatewayConfig({ DEPRECATION_CONFIG: path }).deprecation.endpoints).toHaveLength(1);
    expect(readGatewayConfig({}).deprecation).toEqual({
      endpoints: [],
      versions: [],
      deprecateGatewayVersions: true,
    });
  });

  it('stops the start with a message naming the variable, the file and the entry', () => {
    const path = file('bad.yaml', 'endpoints: [{ endpoint: GET /service/nothing/, deprecated: 2026-09-01 }]');
    const read = () => readGatewayConfig({ DEPRECATION_CONFIG: path });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(
      `DEPRECATION_CONFIG: ${path}: endpoints[0].endpoint: "GET /service/nothing/" is not an operation`,
    );
    const missing = join(folder, 'missing.yaml');
    expect(() => readGatewayConfig({ DEPRECATION_CONFIG: missing })).toThrow(
      `DEPRECATION_CONFIG: cannot read the file "${missing}"`,
    );
  });
});
