import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildVersions } from '../gateway/src/graphql/versions.js';
import {
  omissionMismatch,
  schemaDifferences,
  type OmissionList,
} from '../gateway/src/graphql/os2mo/schema-conformance.js';
import { olderOmissions, v30Omissions } from '../gateway/src/graphql/os2mo/ledger/index.js';

/** OS2mo's own printout of a version (test/fixtures/os2mo-graphql/, OS2mo's text, MPL-2.0). */
const printout = (file: string) =>
  readFileSync(new URL(`./fixtures/os2mo-graphql/${file}`, import.meta.url), 'utf8');

/** Each served OS2mo version, the printout it is held to, and its declared omissions. */
const conforming: { version: string; file: string; omissions: OmissionList }[] = [
  // OS2mo's v30 changed no SDL from v29 (its migration guide, "Version 30"): v29's printout is v30's.
  { version: 'v30', file: 'os2mo-v29.graphql', omissions: v30Omissions },
  { version: 'v29', file: 'os2mo-v29.graphql', omissions: v30Omissions },
];

/**
 * Older versions, each held to its own printout. What OS2mo's schema of that version has beyond v30's
 * declared omissions is declared in the ledger (`ledger/`, entries with `until`); v30's entries that the older schema lacks are not
 * stale there (they are checked exactly against v30 above).
 */
const older: { version: string; file: string }[] = [
  { version: 'v25', file: 'os2mo-v25.graphql' },
  { version: 'v22', file: 'os2mo-v22.graphql' },
  { version: 'v21', file: 'os2mo-v21.graphql' },
];

const served = new Map(buildVersions().map((version) => [version.name, version.schema]));

describe("OS2mo's printouts", () => {
  it.each(['os2mo-v21.graphql', 'os2mo-v22.graphql', 'os2mo-v25.graphql', 'os2mo-v29.graphql'])(
    '%s keeps its source line and licence, and builds as a schema',
    (file) => {
      const text = printout(file);
      expect(text.split('\n')[0]).toMatch(
        /^# source: OS2mo\/[\w-]+@[0-9a-f]{40}:\S+ \(committed \d{4}-\d{2}-\d{2}\)$/,
      );
      expect(text).toContain('SPDX-License-Identifier: MPL-2.0');
      expect(Object.keys(buildSchema(text).getTypeMap()).length).toBeGreaterThan(150);
    },
  );
});

describe.each(conforming)("$version against OS2mo's $file", ({ version, file, omissions }) => {
  const schema = served.get(version);
  const differences = schema ? schemaDifferences(schema, buildSchema(printout(file))) : undefined;

  it('is served', () => {
    expect(schema, `/graphql/${version} is not among the served versions`).toBeDefined();
  });

  it('serves nothing OS2mo does not have, with the same types, arguments and defaults (no conflicts)', () => {
    expect(differences?.conflicts).toEqual([]);
  });

  it('leaves out exactly the declared omissions: none undeclared, none stale', () => {
    expect(differences && omissionMismatch(differences, omissions)).toEqual({ undeclared: [], stale: [] });
  });

  it('gives every omission a reason', () => {
    expect(Object.entries(omissions).filter(([, reason]) => reason.trim().length < 10)).toEqual([]);
  });
});

describe.each(older)("$version against OS2mo's $file", ({ version, file }) => {
  const schema = served.get(version);
  const differences = schema ? schemaDifferences(schema, buildSchema(printout(file))) : undefined;
  const own = olderOmissions[version] ?? {};

  it('serves nothing OS2mo does not have, with the same types, arguments and defaults (no conflicts)', () => {
    expect(schema, `/graphql/${version} is not among the served versions`).toBeDefined();
    expect(differences?.conflicts).toEqual([]);
  });

  it("leaves out only what v30's list or the version's own list declares, and the version's own list is exact", () => {
    const omitted = new Set(differences?.omissions);
    expect(
      differences?.omissions.filter((coordinate) => !(coordinate in v30Omissions) && !(coordinate in own)),
    ).toEqual([]);
    expect(Object.keys(own).filter((coordinate) => !omitted.has(coordinate))).toEqual([]);
    expect(Object.keys(own).length).toBeGreaterThan(0);
  });
});
