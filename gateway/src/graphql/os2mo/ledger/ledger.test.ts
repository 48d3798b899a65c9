import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  type GraphQLSchema,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { address } from './address.js';
import { empty, holdsNone, type TypeLedger } from './entry.js';
import { engagement } from './engagement.js';
import { organisationUnit } from './organisation-unit.js';
import {
  existsIn,
  isWrite,
  ledger,
  nullFacts,
  typeLedgers,
  type LedgerCoordinate,
  type NullFact,
} from './index.js';
import { contractRefusals, nullFactRefusals, splitFacts, type Contract } from './ledger-checks.js';
import { boundFilters } from '../link-filters.js';

const root = new URL('../../../../../', import.meta.url);

/** OS2mo's printouts (`test/fixtures/os2mo-graphql/`, OS2mo's text), by the versions each shows. */
const printouts: readonly { versions: readonly number[]; schema: GraphQLSchema }[] = [
  { versions: [21], file: 'os2mo-v21.graphql' },
  { versions: [22], file: 'os2mo-v22.graphql' },
  { versions: [25], file: 'os2mo-v25.graphql' },
  // OS2mo's v30 changed no SDL from v29 (its migration guide, "Version 30").
  { versions: [29, 30], file: 'os2mo-v29.graphql' },
].map(({ versions, file }) => ({
  versions,
  schema: buildSchema(readFileSync(new URL(`test/fixtures/os2mo-graphql/${file}`, root), 'utf8')),
}));

/** Whether a schema has a coordinate: `Type`, `Type.field`, `Type.field(arg:)`, `Input.field`, `Enum.VALUE`. */
function has(schema: GraphQLSchema, coordinate: string): boolean {
  const match = /^(\w+)(?:\.(\w+)(?:\((\w+):\))?)?$/.exec(coordinate);
  if (!match) throw new Error(`${coordinate} is no schema coordinate.`);
  const [, typeName, member, argument] = match;
  const type = schema.getType(typeName!);
  if (!type || member === undefined) return type !== undefined && type !== null;
  if (isEnumType(type)) return type.getValue(member) !== undefined;
  if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) return false;
  const field = type.getFields()[member];
  if (!field || argument === undefined) return field !== undefined;
  return 'args' in field && field.args.some((arg) => arg.name === argument);
}

const contract = parse(readFileSync(new URL('openapi/legacy-service.yaml', root), 'utf8')) as Contract & {
  paths: Record<string, unknown>;
};

describe("the ledger's ranges, against OS2mo's printouts", () => {
  const ranged = [...ledger.values()].filter(
    (entry) => entry.since !== undefined || entry.until !== undefined,
  );

  it.each(printouts.map((printout) => [printout.versions.join(' and '), printout] as const))(
    'v%s has exactly the ranged coordinates the ledger says it has',
    (_name, { versions, schema }) => {
      const wrong = ranged.flatMap((entry) =>
        versions
          .filter((version) => existsIn(entry, version) !== has(schema, entry.coordinate))
          .map(
            (version) =>
              `${entry.coordinate} in v${version}: ${existsIn(entry, version) ? 'not printed' : 'printed'}`,
          ),
      );
      expect(wrong).toEqual([]);
      expect(ranged.length).toBeGreaterThan(100);
    },
  );

  it('gives a range only within the served versions, and a start before its end', () => {
    const wrong = [...ledger.values()].filter(
      ({ since = 21, until = 31 }) => since < 21 || until > 31 || since >= until,
    );
    expect(wrong.map((entry) => entry.coordinate)).toEqual([]);
  });
});

describe("the ledger's evidence", () => {
  const facts = new Set([...ledger.values()].flatMap((entry) => (entry.fact ? [entry.fact] : [])));
  // The value facts' evidence (`nulls`) too.
  const evidence = [...new Set([...facts, ...nullFacts.values()].flatMap((fact) => fact.evidence))];

  it('gives every empty and omitted coordinate a fact with evidence and a reason', () => {
    const bare = [...ledger.values()].filter(
      (entry) => entry.answer !== 'served' && (!entry.fact?.evidence.length || !entry.fact.reason),
    );
    expect(bare.map((entry) => entry.coordinate)).toEqual([]);
  });

  it("names only the contract's schemas, properties and paths", () => {
    const missing = evidence.flatMap((item) => {
      if (!item.startsWith('contract:')) return [];
      const named = item.slice('contract:'.length);
      if (named.startsWith('/')) return named in contract.paths ? [] : [item];
      const [schema, property] = named.split('.');
      const found = contract.components.schemas[schema!];
      return found && (property === undefined || property in (found.properties ?? {})) ? [] : [item];
    });
    expect(missing).toEqual([]);
  });

  const mirror = '/work/.mirror/OS2mo+os2mo/repo';
  it.skipIf(!existsSync(mirror))("names lines OS2mo's source has at the tag it names", () => {
    const missing = evidence.flatMap((item) => {
      if (!item.startsWith('os2mo:')) return [];
      const [, file, tag, line] = /^os2mo:(.+)@(.+):(\d+)$/.exec(item) ?? [];
      const text = execFileSync('git', ['--git-dir', mirror, 'show', `${tag}:${file}`], { encoding: 'utf8' });
      return text.split('\n').length >= Number(line) ? [] : [item];
    });
    expect(missing).toEqual([]);
  });
});

describe("the ledger's contract check", () => {
  const hierarchy = holdsNone(
    'a 2.x unit carries no hierarchy',
    ['contract:OrgUnit'],
    ['org_unit_hierarchy'],
  );

  // What the ledger said until 2.4.0's unit writes were found to store a hierarchy
  // (`backend/mora/service/orgunit.py`@2.4.0, lines 121 and 255; the contract's `OrgUnitCreate`, `OrgUnitEdit`).
  it.each(['org_unit_hierarchy', 'unit_hierarchy_response'])(
    'refuses OrganisationUnit.%s declared empty: the contract carries the hierarchy',
    (field) => {
      const unit: TypeLedger = {
        ...organisationUnit,
        fields: { [field]: empty(hierarchy, 'UUID') },
        more: {},
      };
      expect(contractRefusals([unit], contract)).toEqual([
        `OrganisationUnit.${field}: the contract's OrgUnitCreate carries \`org_unit_hierarchy\``,
        `OrganisationUnit.${field}: the contract's OrgUnitEdit carries \`org_unit_hierarchy\``,
      ]);
    },
  );

  it('reads a link backwards from the record that would name it', () => {
    // An address names its engagement: an engagement's addresses are not "held none".
    const named = holdsNone('said none', ['contract:Address'], ['engagement'], 'Address');
    const engagementLedger: TypeLedger = {
      ...engagement,
      fields: { addresses_response: empty(named, 'AddressResponsePaged!') },
      more: {},
    };
    expect(contractRefusals([engagementLedger, address], contract)).toEqual([
      "Engagement.addresses_response: the contract's Address carries `engagement`",
      "Engagement.addresses_response: the contract's AddressCreate carries `engagement`",
    ]);
    // Without the record's map, the check cannot pass it.
    expect(contractRefusals([engagementLedger], contract)).toEqual([
      'Engagement.addresses_response: no contract schema is mapped for Address',
    ]);
  });

  it('refuses a map naming a schema the contract has not, so that it cannot silently check nothing', () => {
    const unknown: TypeLedger = { type: 'Gone', contract: ['NoSuchSchema'], fields: {} };
    expect(contractRefusals([unknown], contract)).toEqual(['Gone: the contract has no schema NoSuchSchema']);
  });
});

/** This gateway's own v1 and v2, as printed (`gateway/src/graphql/schema/__snapshots__/`). */
const gatewaySchemas = Object.fromEntries(
  ['v1', 'v2'].map((version) => [
    version,
    buildSchema(
      readFileSync(new URL(`gateway/src/graphql/schema/__snapshots__/${version}.graphql`, root), 'utf8'),
    ),
  ]),
);

describe("the ledger's value facts (a null given to an input field)", () => {
  const level = nullFacts.get('OrganisationUnitUpdateInput.org_unit_level')!;
  const refusals = (coordinate: string, fact: NullFact) =>
    nullFactRefusals(new Map([[coordinate, fact]]), printouts, gatewaySchemas);

  it("holds each to OS2mo's printouts and to this gateway's v1 and v2", () => {
    expect(nullFactRefusals(nullFacts, printouts, gatewaySchemas)).toEqual([]);
    expect([...nullFacts.keys()]).toEqual([
      'OrganisationUnitUpdateInput.org_unit_level',
      'OrganisationUnitUpdateInput.org_unit_hierarchy',
      'OrganisationUnitUpdateInput.time_planning',
    ]);
  });

  it('refuses a range where OS2mo reads a null as left out (v21 prints `= null`), or one cut short', () => {
    expect(refusals('OrganisationUnitUpdateInput.org_unit_level', { ...level, since: 21 })).toEqual([
      'OrganisationUnitUpdateInput.org_unit_level in v21: printed with `= null`, so OS2mo reads a null as left out',
    ]);
    expect(refusals('OrganisationUnitUpdateInput.org_unit_level', { ...level, until: 25 })).toEqual([
      'OrganisationUnitUpdateInput.org_unit_level in v25: printed without a default, so OS2mo reads a null as a clear',
      'OrganisationUnitUpdateInput.org_unit_level in v29: printed without a default, so OS2mo reads a null as a clear',
      'OrganisationUnitUpdateInput.org_unit_level in v30: printed without a default, so OS2mo reads a null as a clear',
    ]);
  });

  it('refuses an input field OS2mo does not print, a v1/v2 field the gateway has not, and a bare fact', () => {
    expect(refusals('OrganisationUnitUpdateInput.org_unit_levels', level)).toHaveLength(4);
    expect(refusals('OrganisationUnitUpdateInput.org_unit_levels', level)[0]).toBe(
      'OrganisationUnitUpdateInput.org_unit_levels in v22: not printed',
    );
    expect(
      refusals('OrganisationUnitUpdateInput.org_unit_hierarchy', {
        ...level,
        v1v2: 'OrgUnitUpdateInput.org_unit_hierarchy',
      }),
    ).toEqual([
      'OrganisationUnitUpdateInput.org_unit_hierarchy: v1 has no OrgUnitUpdateInput.org_unit_hierarchy',
      'OrganisationUnitUpdateInput.org_unit_hierarchy: v2 has no OrgUnitUpdateInput.org_unit_hierarchy',
    ]);
    expect(refusals('OrganisationUnitUpdateInput.org_unit_level', { ...level, evidence: [] })).toEqual([
      'OrganisationUnitUpdateInput.org_unit_level: no reason, words or evidence',
    ]);
  });
});

describe('one fact, one answer in every spelling', () => {
  const coordinate = (name: string, answer: LedgerCoordinate['answer'], owner: TypeLedger) =>
    ({ coordinate: name, answer, owner }) as LedgerCoordinate;
  const unit: TypeLedger = { type: 'Facet', contract: [], fields: {} };

  it('finds a fact left out in one spelling and answered empty in another', () => {
    const split = splitFacts([
      coordinate('Facet.parent', 'omitted', unit),
      coordinate('Facet.parent_uuid', 'omitted', unit),
      coordinate('Facet.parent_response', 'empty', unit),
      coordinate('FacetFilter.parent', 'served', unit),
      coordinate('Facet.uuid', 'served', unit),
    ]);
    expect(split).toEqual([
      'Facet parent: omitted as Facet.parent, Facet.parent_uuid; answered as Facet.parent_response, FacetFilter.parent',
    ]);
  });

  it('leaves a write apart: a write has nowhere to put what 2.x holds none of', () => {
    expect(
      splitFacts([
        coordinate('ITUser.primary', 'empty', unit),
        coordinate('ITUserCreateInput.primary', 'omitted', unit),
      ]),
    ).toEqual([]);
    expect(isWrite('ITUserCreateInput.primary')).toBe(true);
  });
});

describe('the ledger', () => {
  it('holds every type once, and the contract map names schemas the contract has', () => {
    expect(new Set(typeLedgers.map((type) => type.type)).size).toBe(typeLedgers.length);
    expect(
      contractRefusals(typeLedgers, contract).filter((refusal) => refusal.includes('no schema')),
    ).toEqual([]);
  });
});

/**
 * What the checks find in the ledger as it stands: nothing. A fact is answered alike in every spelling, its
 * filter members included (a manager filter's `engagement`, a facet filter's `parent`, an IT account filter's
 * `engagement`, `external_ids` and `binding_types`, a class filter's `it_system`, an engagement filter's
 * `ituser` and a role binding filter's `role` are served as the fields are: given a value they keep nothing,
 * given null everything), and each bound filter copies its filter's members by the same fact. An address
 * filter's `ituser` is served, not by its fields' fact: OS2mo ORs it with `engagement` on the one relation
 * where a 2.x address names its engagement, so its UUIDs keep the addresses of an engagement they name.
 */
describe('the ledger, checked', () => {
  it('declares empty only what the contract carries no property for', () => {
    expect(contractRefusals(typeLedgers, contract)).toEqual([]);
  });

  it('answers each fact alike in every spelling', () => {
    expect(splitFacts(ledger.values())).toEqual([]);
  });

  it.each([
    ['Manager', 'ManagerFilter.engagement', 'Manager.engagement_response'],
    ['Facet', 'FacetFilter.parent', 'Facet.parent_response'],
    ['Facet', 'FacetFilter.parents', 'Facet.parent'],
    ['Facet', 'UuidsBoundFacetFilter.parent_user_keys', 'Facet.parent_uuid'],
    ['ITUser', 'ITUserFilter.engagement', 'ITUser.engagement_response'],
    ['ITUser', 'OrgUnitboundituserfilter.engagement', 'ITUser.engagements'],
    ['ITUser', 'EmployeesBoundITUserFilter.engagement', 'ITUser.engagement_uuid'],
    ['Class', 'ClassFilter.it_system', 'Class.it_system_response'],
    ['Class', 'FacetBoundClassFilter.it_system', 'Class.it_system_uuid'],
    ['Class', 'ParentsBoundClassFilter.it_system', 'Class.it_system'],
    ['Engagement', 'EngagementFilter.ituser', 'Engagement.itusers_response'],
    ['Engagement', 'EmployeeBoundEngagementFilter.ituser', 'ITUser.engagement_response'],
    ['ITUser', 'ITUserFilter.external_ids', 'ITUser.external_id'],
    ['ITUser', 'EmployeesBoundITUserFilter.external_ids', 'ITUser.external_id'],
    ['ITUser', 'EngagementBoundITUserFilter.external_ids', 'ITUser.external_id'],
    ['ITUser', 'ITUserFilter.binding_types', 'ITUser.binding_type'],
    ['ITUser', 'OrgUnitboundituserfilter.binding_types', 'ITUser.binding_type'],
    ['RoleBinding', 'RoleBindingFilter.role', 'ITUser.rolebindings_response'],
    ['RoleBinding', 'ItuserBoundRoleBindingFilter.role', 'RoleBinding.role_response'],
  ])("declares %s's filter member %s by the fact of %s", (_type, member, field) => {
    expect(ledger.get(member)?.answer).toBe('empty');
    expect(ledger.get(member)?.fact).toBe(ledger.get(field)?.fact);
  });

  // OS2mo tests an address's `ituser` with its `engagement` on `tilknyttedefunktioner`, taking UUIDs as given
  // (`mora/graphapi/resolvers.py`@66.1.2:754-791): `ituser: {uuids: [an engagement]}` keeps that engagement's
  // addresses, so the member is served in every filter copying it while the fields stay empty.
  it("serves an address filter's `ituser` in every filter copying it, and answers the address's IT account empty", () => {
    const copies = Object.entries(boundFilters)
      .filter(([, bound]) => bound.base === 'AddressFilter' && !bound.without.includes('ituser'))
      .map(([name]) => `${name}.ituser`)
      .filter((coordinate) => ledger.has(coordinate));
    expect(copies).toHaveLength(3);
    // v22–v25's plural bound filters, which v30 no longer has.
    const older = ['EmployeesBoundAddressFilter.ituser', 'OrgUnitsboundaddressfilter.ituser'];
    for (const coordinate of ['AddressFilter.ituser', ...older, ...copies]) {
      expect(ledger.get(coordinate)?.answer, coordinate).toBe('served');
    }
    for (const field of ['Address.ituser_response', 'Address.ituser', 'Address.ituser_uuid']) {
      expect(ledger.get(field)?.answer, field).toBe('empty');
    }
  });

  it("declares each member a bound filter copies by its filter's fact, so that a link filters as its collection", () => {
    const unlike = [...ledger.values()].flatMap(({ coordinate, fact }) => {
      const [, filter, member] = /^(\w+Filter)\.(\w+)$/.exec(coordinate) ?? [];
      if (fact === undefined || filter === undefined || member === undefined) return [];
      return Object.entries(boundFilters)
        .filter(([, bound]) => bound.base === filter && !bound.without.includes(member))
        .filter(([name]) => ledger.get(`${name}.${member}`)?.fact !== fact)
        .map(([name]) => `${name}.${member}: not by the fact of ${coordinate}`);
    });
    expect(unlike).toEqual([]);
    expect(ledger.get('EngagementBoundITUserFilter.engagement')).toBeUndefined();
  });
});
