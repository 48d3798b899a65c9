import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  classUuid,
  organisationUuid,
  referenceUnitUuids,
} from '../legacy-service/src/fixture/organisation.js';
import { stableUuid } from '../legacy-service/src/fixture/stable-uuid.js';
import { postGraphQL, startTestStack, type TestStack } from './stack.js';

/**
 * OS2mo's web UI (os2mo-naldo) in CI, where the UI itself is not at hand: each case is written by us in the
 * shape of one of the UI's documents (the same fields, arguments and filters, at v29 as the UI asks), and
 * names the UI's file it mirrors (magenta-aps/os2mo-naldo, `web/src/…`). `npm run os2mo-ui:trial` drives the
 * UI itself; these cases say, per page read and per form, whether the gateway answers what the UI asks.
 */

interface Seeded {
  unit: {
    uuid: string;
    name: string;
    userKey: string;
    parent: string | null;
    type: string | null;
    level: string | null;
  };
  person: { uuid: string; name: string };
  /** A class of its own for the edit-class form, and the facet it is in. */
  klass: { uuid: string; userKey: string; facet: string };
  /** A file in the export folder, for the reports page. */
  file: { name: string; contents: string };
  today: string;
}

interface ShapeCase {
  /** What the UI shows with it. */
  name: string;
  /** The UI's file whose document this case mirrors. */
  mirrors: string;
  query: string;
  variables: (seeded: Seeded) => Record<string, unknown>;
  /** What the answer must hold beyond "no errors", read from `data`. */
  holds?: (data: any, seeded: Seeded) => void;
}

const naldo = (path: string) => `magenta-aps/os2mo-naldo web/src/${path}`;
/** A linked object as the UI asks for it: its UUID and, at a date, its name. */
const named = (link: string, at = '$from') => `${link} { uuid current(at: ${at}) { name } }`;
const span = 'validity { from to }';

/** The pages' reads: the organisation tree, the unit page and its tabs, the person page and its tabs, search. */
const reads: ShapeCase[] = [
  {
    name: 'organisation tree: the top units, each saying whether it has children',
    mirrors: naldo('lib/components/org/tree/OrgTree.svelte'),
    query: `query TreeRoots($from: DateTime) {
      org_units(filter: { parents: null, from_date: $from }) {
        objects { validities { uuid name user_key has_children(filter: { from_date: $from }) } }
      }
    }`,
    variables: ({ today }) => ({ from: today }),
    holds: (data) => expect(data.org_units.objects.length).toBeGreaterThan(0),
  },
  {
    // OS2mo 2.4.0 stores a unit's hierarchy and filters the children reads by it (`service/orgunit.py`); the
    // seed puts some units below the top in one (`hierarchyOf` in the stand-in's fixture).
    name: 'organisation tree with a hierarchy chosen: the top units above its units, each saying whether it has children',
    mirrors: naldo('lib/components/org/tree/OrgTree.svelte'),
    query: `query OrgUnitsWithFilteredChildren($fromDate: DateTime, $orgUnitHierarchies: [UUID!]) {
      org_units(filter: { parents: null, descendant: { from_date: $fromDate, hierarchy: { uuids: $orgUnitHierarchies } } }) {
        objects { validities { name user_key uuid
          has_children(filter: { descendant: { from_date: $fromDate, hierarchy: { uuids: $orgUnitHierarchies } } })
        } }
      }
    }`,
    // The UI passes the one chosen class's UUID for the list.
    variables: ({ today }) => ({
      fromDate: today,
      orgUnitHierarchies: classUuid('org_unit_hierarchy', 'line_management'),
    }),
    holds: (data) => {
      expect(data.org_units.objects.length).toBeGreaterThan(0);
      expect(
        data.org_units.objects.some(
          (o: { validities: { has_children: boolean }[] }) => o.validities[0]!.has_children,
        ),
      ).toBe(true);
    },
  },
  {
    name: 'unit page: the heading over all of time',
    mirrors: naldo('routes/(app)/organisation/[uuid]/+page.svelte'),
    query: `query UnitHeading($units: [UUID!]) {
      org_units(filter: { uuids: $units, from_date: null, to_date: null }) {
        objects { validities { uuid name user_key ${span} } }
      }
    }`,
    variables: ({ unit }) => ({ units: [unit.uuid] }),
    holds: (data, { unit }) => expect(data.org_units.objects[0].validities[0].name).toBe(unit.name),
  },
  {
    name: 'unit page: the breadcrumbs',
    mirrors: naldo('lib/components/org/Breadcrumbs.svelte'),
    query: `query UnitTrail($units: [UUID!], $at: DateTime) {
      org_units(filter: { uuids: $units, from_date: $at }) { objects { current(at: $at) { ancestors { uuid name } } } }
    }`,
    variables: ({ unit, today }) => ({ units: [unit.uuid], at: today }),
  },
  {
    name: 'unit page, tab unit: type, level, parent and time planning',
    mirrors: naldo('lib/components/tables/OrgUnitTable.svelte'),
    query: `query UnitTab($units: [UUID!], $from: DateTime, $to: DateTime) {
      org_units(filter: { uuids: $units, from_date: $from, to_date: $to }) {
        objects { validities {
          uuid name ${named('unit_type_response')} ${named('unit_level_response')}
          ${named('parent_response')} ${named('time_planning_response')} ${span}
        } }
      }
    }`,
    variables: ({ unit, today }) => ({ units: [unit.uuid], from: today, to: null }),
    holds: (data) => expect(data.org_units.objects).toHaveLength(1),
  },
  {
    name: 'unit page, tab address',
    mirrors: naldo('lib/components/tables/AddressTable.svelte'),
    query: `query UnitAddresses($units: [UUID!], $people: [UUID!], $from: DateTime, $to: DateTime) {
      addresses(filter: { org_units: $units, employees: $people, from_date: $from, to_date: $to }) {
        objects { validities {
          uuid name user_key value ${named('address_type_response')}
          ituser_response { uuid validities(start: $from, end: $to) {
            user_key ${span} itsystem_response { uuid current(at: $from) { user_key name } }
          } }
          ${named('visibility_response')} ${span}
        } }
      }
    }`,
    variables: ({ unit, today }) => ({ units: [unit.uuid], people: null, from: today, to: null }),
    holds: (data) => expect(data.addresses.objects.length).toBeGreaterThan(0),
  },
  {
    name: 'unit page, tab engagement',
    mirrors: naldo('lib/components/tables/EngagementTable.svelte'),
    query: engagementTab('UnitEngagements'),
    variables: ({ unit, today }) => ({
      people: null,
      units: [unit.uuid],
      from: today,
      to: null,
      isUnit: true,
    }),
    holds: (data) => expect(data.engagements.objects.length).toBeGreaterThan(0),
  },
  {
    name: 'unit page, tab association',
    mirrors: naldo('lib/components/tables/AssociationTable.svelte'),
    query: associationTab('UnitAssociations'),
    variables: ({ unit, today }) => ({ people: null, units: [unit.uuid], from: today, to: null }),
  },
  {
    name: 'unit page, tab IT user: by engagement in the unit and by the unit',
    mirrors: naldo('lib/components/tables/OrgITUserTable.svelte'),
    query: `query UnitItUsers($units: [UUID!], $from: DateTime, $to: DateTime) {
      viaEngagement: itusers(filter: { engagement: { org_unit: { uuids: $units } }, from_date: $from, to_date: $to }) {
        objects { validities {
          uuid user_key external_id ${named('itsystem_response')} ${span} ${named('primary_response')}
          engagements(filter: { from_date: $from, to_date: $to }) { validities {
            uuid ${span} org_unit_response { uuid current(at: $from) { name user_key } }
            job_function_response { current(at: $from) { name user_key } }
          } }
        } }
      }
      viaUnit: itusers(filter: { org_unit: { uuids: $units }, from_date: $from, to_date: $to }) {
        objects { validities { uuid user_key external_id ${named('itsystem_response')} ${span} ${named('primary_response')} } }
      }
    }`,
    variables: ({ unit, today }) => ({ units: [unit.uuid], from: today, to: null }),
  },
  {
    name: 'unit page, tab KLE',
    mirrors: naldo('lib/components/tables/KLETable.svelte'),
    query: `query UnitKle($units: [UUID!], $from: DateTime, $to: DateTime) {
      kles(filter: { org_units: $units, from_date: $from, to_date: $to }) {
        objects { validities {
          uuid ${span} kle_number_response { uuid current(at: $from) { name user_key } }
          kle_aspects_response { objects { uuid current(at: $from) { name } } }
        } }
      }
    }`,
    variables: ({ unit, today }) => ({ units: [unit.uuid], from: today, to: null }),
  },
  {
    name: 'unit page, tab manager (no inherited managers on a unit)',
    mirrors: naldo('lib/components/tables/ManagerTable.svelte'),
    query: managerTab('UnitManagers'),
    variables: ({ unit, today }) => ({
      people: null,
      units: [unit.uuid],
      from: today,
      to: null,
      inherit: false,
    }),
    holds: (data, { person }) =>
      expect(data.managers.objects.map((each: any) => each.validities[0].person_response?.uuid)).toContain(
        person.uuid,
      ),
  },
  {
    name: 'unit page, tab owner (inherited owners too)',
    mirrors: naldo('lib/components/tables/OwnerTable.svelte'),
    query: `query UnitOwners($units: [UUID!], $from: DateTime, $to: DateTime) {
      org_units(filter: { uuids: $units, from_date: $from, to_date: $to }) {
        objects { validities {
          owners(filter: { from_date: $from, to_date: $to }, inherit: true) {
            uuid ${span} ${named('person_response')} ${named('org_unit_response')} ${named('owner_response')}
          }
        } }
      }
    }`,
    variables: ({ unit, today }) => ({ units: [unit.uuid], from: today, to: null }),
  },
  {
    name: 'unit page, tab related units',
    mirrors: naldo('lib/components/tables/RelatedUnitsTable.svelte'),
    query: `query UnitRelations($units: [UUID!], $from: DateTime, $to: DateTime) {
      related_units(filter: { org_units: $units, from_date: $from, to_date: $to }) {
        objects { validities {
          uuid ${span}
          org_units(filter: { from_date: null, to_date: null }) { uuid name ${span} ancestors { uuid name } }
        } }
      }
    }`,
    variables: ({ unit, today }) => ({ units: [unit.uuid], from: today, to: null }),
  },
  {
    name: 'person page: the heading, with the CPR number',
    mirrors: naldo('routes/(app)/employee/[uuid]/+page.svelte'),
    query: `query PersonHeading($people: [UUID!], $from: DateTime) {
      employees(filter: { uuids: $people, from_date: $from }) { objects { objects { uuid name cpr_number } } }
    }`,
    variables: ({ person, today }) => ({ people: [person.uuid], from: today }),
    holds: (data, { person }) => expect(data.employees.objects[0].objects[0].name).toBe(person.name),
  },
  {
    name: 'person page, tab person: name, nickname and validity',
    mirrors: naldo('lib/components/tables/EmployeeTable.svelte'),
    query: `query PersonTab($people: [UUID!], $from: DateTime, $to: DateTime) {
      employees(filter: { uuids: $people, from_date: $from, to_date: $to }) {
        objects { validities { uuid name nickname ${span} } }
      }
    }`,
    variables: ({ person, today }) => ({ people: [person.uuid], from: today, to: null }),
    holds: (data) => expect(data.employees.objects[0].validities.length).toBeGreaterThan(0),
  },
  {
    name: "person page, tab engagement (with the engagements' managers, inherited)",
    mirrors: naldo('lib/components/tables/EngagementTable.svelte'),
    query: engagementTab('PersonEngagements'),
    variables: ({ person, today }) => ({
      people: [person.uuid],
      units: null,
      from: today,
      to: null,
      isUnit: false,
    }),
    holds: (data) => expect(data.engagements.objects.length).toBeGreaterThan(0),
  },
  {
    name: 'person page, tab address',
    mirrors: naldo('lib/components/tables/AddressTable.svelte'),
    query: `query PersonAddresses($people: [UUID!], $from: DateTime, $to: DateTime) {
      addresses(filter: { employees: $people, from_date: $from, to_date: $to }) {
        objects { validities { uuid name user_key value ${named('address_type_response')} ${named('visibility_response')} ${span} } }
      }
    }`,
    variables: ({ person, today }) => ({ people: [person.uuid], from: today, to: null }),
  },
  {
    name: 'person page, tab association',
    mirrors: naldo('lib/components/tables/AssociationTable.svelte'),
    query: associationTab('PersonAssociations'),
    variables: ({ person, today }) => ({ people: [person.uuid], units: null, from: today, to: null }),
  },
  {
    name: 'person page, tab IT user',
    mirrors: naldo('lib/components/tables/ITUserTable.svelte'),
    query: `query PersonItUsers($people: [UUID!], $from: DateTime, $to: DateTime) {
      itusers(filter: { employee: { uuids: $people }, from_date: $from, to_date: $to }) {
        objects { validities {
          uuid user_key external_id ${named('itsystem_response')} ${span} ${named('primary_response')}
          engagements(filter: { from_date: $from, to_date: $to }) { validities {
            uuid ${span} org_unit_response { uuid current(at: $from) { name user_key } }
            job_function_response { current(at: $from) { name user_key } }
          } }
        } }
      }
    }`,
    variables: ({ person, today }) => ({ people: [person.uuid], from: today, to: null }),
  },
  {
    name: 'person page, tab leave',
    mirrors: naldo('lib/components/tables/LeaveTable.svelte'),
    query: `query PersonLeaves($people: [UUID!], $from: DateTime, $to: DateTime) {
      leaves(filter: { employees: $people, from_date: $from, to_date: $to }) {
        objects { validities {
          uuid ${span} ${named('leave_type_response')}
          engagement_response { uuid current(at: $from) {
            ${named('org_unit_response')} job_function_response { current(at: $from) { name } }
          } }
        } }
      }
    }`,
    variables: ({ person, today }) => ({ people: [person.uuid], from: today, to: null }),
  },
  {
    // The UI sends `inherit: false` for a person: OS2mo refuses `inherit` without a unit to start from
    // (mora/graphapi/resolvers.py@HEAD, "The inherit flag requires an organizational unit filter").
    name: 'person page, tab manager (the roles the person holds, none inherited)',
    mirrors: naldo('lib/components/tables/ManagerTable.svelte'),
    query: managerTab('PersonManagers'),
    variables: ({ person, today }) => ({
      people: [person.uuid],
      units: null,
      from: today,
      to: null,
      inherit: false,
    }),
    holds: (data, { unit }) =>
      expect(data.managers.objects.map((each: any) => each.validities[0].org_unit_response?.uuid)).toContain(
        unit.uuid,
      ),
  },
  {
    name: 'person page, tab owner',
    mirrors: naldo('lib/components/tables/OwnerTable.svelte'),
    query: `query PersonOwners($people: [UUID!], $from: DateTime, $to: DateTime) {
      owners(filter: { employee: { uuids: $people }, from_date: $from, to_date: $to }) {
        objects { validities { uuid ${span} ${named('person_response')} ${named('org_unit_response')} ${named('owner_response')} } }
      }
    }`,
    variables: ({ person, today }) => ({ people: [person.uuid], from: today, to: null }),
  },
  {
    name: 'search for a person by name',
    mirrors: naldo('lib/components/search/Search.svelte'),
    query: `query FindPerson($filter: EmployeeFilter!, $plain: Boolean = true, $limit: int, $at: DateTime) {
      employees(filter: $filter, limit: $limit) {
        objects { validities {
          uuid name cpr_number ${span}
          itusers @include(if: $plain) { user_key }
          addresses @include(if: $plain) { ...FoundAddress }
        } }
      }
    }
    fragment FoundAddress on Address {
      ${named('address_type_response', '$at')}
      resolve { ... on DefaultAddress { __typename value } ... on MultifieldAddress { __typename value value2 } }
    }`,
    variables: ({ person, today }) => ({
      filter: { from_date: today, query: person.name },
      limit: 10,
      at: today,
    }),
    holds: (data, { person }) =>
      expect(data.employees.objects.map((each: any) => each.validities[0].uuid)).toContain(person.uuid),
  },
  {
    name: 'search for a unit by name',
    mirrors: naldo('lib/components/search/Search.svelte'),
    query: `query FindUnit($filter: OrganisationUnitFilter!, $plain: Boolean = true, $limit: int, $at: DateTime) {
      org_units(filter: $filter, limit: $limit) {
        objects { validities {
          uuid name ${span} ancestors { name }
          addresses @include(if: $plain) {
            ${named('address_type_response', '$at')}
            resolve { ... on DefaultAddress { __typename value } ... on MultifieldAddress { __typename value value2 } }
          }
        } }
      }
    }`,
    variables: ({ unit, today }) => ({
      filter: { from_date: today, query: unit.name },
      limit: 10,
      at: today,
    }),
    holds: (data, { unit }) =>
      expect(data.org_units.objects.map((each: any) => each.validities[0].uuid)).toContain(unit.uuid),
  },
  {
    name: "type selectors: a form's facets with their classes (address type and visibility)",
    mirrors: naldo('lib/http/queries.ts'),
    query: `query FormClasses($at: DateTime, $units: [UUID!], $facets: [String!]) {
      facets(filter: { user_keys: $facets }) {
        objects { validities {
          uuid user_key
          classes_responses(filter: {
            from_date: $at
            owner: { include_none: true, descendant: { uuids: $units, from_date: $at }, from_date: $at }
          }) { objects { uuid current(at: $at) { name user_key scope } } }
        } }
      }
    }`,
    variables: ({ unit, today }) => ({
      at: today,
      units: [unit.uuid],
      facets: ['org_unit_address_type', 'visibility'],
    }),
    // The seeded classes name no owner, and `include_none` keeps those: both selectors list classes.
    holds: (data) => {
      const counts = data.facets.objects.map(
        (each: any) => each.validities[0].classes_responses.objects.length,
      );
      expect(counts).toHaveLength(2);
      for (const count of counts) expect(count).toBeGreaterThan(0);
    },
  },
  {
    name: 'navigation bar: the backend version',
    mirrors: naldo('lib/components/navbar/Navbar.svelte'),
    query: 'query BackendVersion { version { mo_version } }',
    variables: () => ({}),
  },
  {
    name: 'rename form: the unit as the form loads it',
    mirrors: naldo('routes/(app)/organisation/[uuid]/edit/unit/+page.svelte'),
    query: `query RenameFormUnit($units: [UUID!], $from: DateTime, $to: DateTime, $at: DateTime) {
      org_units(filter: { uuids: $units, from_date: $from, to_date: $to }) {
        objects { validities {
          uuid name user_key ${named('parent_response', '$at')} ${span}
          time_planning_response { uuid current(at: $from) { name user_key } }
          unit_type_response { uuid current(at: $from) { name user_key } }
          unit_level_response { uuid current(at: $from) { name user_key } }
        } }
      }
    }`,
    variables: ({ unit, today }) => ({ units: [unit.uuid], from: today, to: null, at: today }),
  },
  {
    name: 'reports page: the export files',
    mirrors: naldo('routes/(app)/reports/+page.svelte'),
    query: `query GetFileNames {
      files(filter: { file_store: EXPORTS }) { objects { file_name } }
    }`,
    variables: () => ({}),
    holds: (data, { file }) =>
      expect(data.files.objects.map((each: any) => each.file_name)).toContain(file.name),
  },
  {
    name: 'reports page: downloading one file',
    mirrors: naldo('routes/(app)/reports/+page.svelte'),
    query: `query GetFile($file_name: [String!]) {
      files(filter: { file_store: EXPORTS, file_names: $file_name }) { objects { file_name base64_contents } }
    }`,
    variables: ({ file }) => ({ file_name: [file.name] }),
    holds: (data, { file }) =>
      expect(data.files.objects).toEqual([
        { file_name: file.name, base64_contents: Buffer.from(file.contents).toString('base64') },
      ]),
  },
  {
    name: "forms' date bounds: the unit's validities",
    mirrors: naldo('lib/http/queries.ts'),
    query: `query UnitBounds($units: [UUID!]) {
      org_units(filter: { uuids: $units, from_date: null, to_date: null }) { objects { validities { ${span} } } }
    }`,
    variables: ({ unit }) => ({ units: [unit.uuid] }),
  },
];

function engagementTab(name: string): string {
  return `query ${name}($people: [UUID!], $units: [UUID!], $from: DateTime, $to: DateTime, $inherit: Boolean = true, $isUnit: Boolean = false) {
    engagements(filter: { employees: $people, org_units: $units, from_date: $from, to_date: $to }) {
      objects { validities {
        uuid user_key org_unit_uuid extension_1 extension_4 ${span}
        ${named('person_response')} job_function_response { uuid current(at: $from) { name user_key } }
        ${named('engagement_type_response')} ${named('primary_response')}
        itusers(filter: { from_date: $from, to_date: $to }) { validities {
          uuid user_key ${span} itsystem_response { uuid current(at: $from) { name user_key } }
        } }
        org_unit_response @skip(if: $isUnit) { uuid current(at: $from) { name } }
        managers(inherit: $inherit, exclude_self: true) @skip(if: $isUnit) { ${named('person_response')} }
      } }
    }
  }`;
}

function associationTab(name: string): string {
  return `query ${name}($people: [UUID!], $units: [UUID!], $from: DateTime, $to: DateTime) {
    associations(filter: { employees: $people, org_units: $units, it_association: false, from_date: $from, to_date: $to }) {
      objects { validities {
        uuid ${span} ${named('org_unit_response')} ${named('person_response')} ${named('association_type_response')}
        ${named('trade_union_response')} ${named('substitute_response')} ${named('primary_response')}
      } }
    }
  }`;
}

function managerTab(name: string): string {
  return `query ${name}($people: [UUID!], $units: [UUID!], $from: DateTime, $to: DateTime, $inherit: Boolean = true) {
    managers(filter: { employees: $people, org_units: $units, from_date: $from, to_date: $to }, inherit: $inherit) {
      objects { validities {
        uuid ${span} ${named('person_response')} ${named('org_unit_response')}
        ${named('manager_level_response')} ${named('manager_type_response')}
        engagement_response { uuid current(at: $from) {
          ${named('org_unit_response')} job_function_response { current(at: $from) { name } }
        } }
        responsibilities_response { objects { uuid current(at: $from) { name } } }
      } }
    }
  }`;
}

/** The forms' mutations, with the input each form's action builds and the result it reads back. */
const writes: ShapeCase[] = [
  {
    name: 'create-address form on a unit: the result names the unit through org_unit_response',
    mirrors: naldo(
      'routes/(app)/organisation/[[uuid]]/create/address/+page.svelte (and its +page.server.ts)',
    ),
    query: `mutation AddUnitAddress($input: AddressCreateInput!, $at: DateTime!) {
      address_create(input: $input) { uuid current(at: $at) { ${named('org_unit_response', '$at')} } }
    }`,
    variables: ({ unit, today }) => {
      const uuid = crypto.randomUUID();
      return {
        at: today,
        input: {
          uuid,
          org_unit: unit.uuid,
          address_type: classUuid('org_unit_address_type', 'unit_email'),
          user_key: uuid,
          value: 'shapes@example.org',
          visibility: classUuid('visibility', 'internal'),
          validity: { from: today },
        },
      };
    },
    holds: (data, { unit }) => expect(data.address_create.current.org_unit_response.uuid).toBe(unit.uuid),
  },
  {
    name: 'create-address form on a person: the same mutation with a person',
    mirrors: naldo('routes/(app)/employee/[[uuid]]/create/address/+page.svelte (and its +page.server.ts)'),
    query: `mutation AddPersonAddress($input: AddressCreateInput!, $at: DateTime!) {
      address_create(input: $input) { uuid current(at: $at) { ${named('person_response', '$at')} } }
    }`,
    variables: ({ person, today }) => {
      const uuid = crypto.randomUUID();
      return {
        at: today,
        input: {
          uuid,
          person: person.uuid,
          address_type: classUuid('employee_address_type', 'employee_email'),
          user_key: uuid,
          value: 'shapes.person@example.org',
          validity: { from: today },
        },
      };
    },
    holds: (data, { person }) => expect(data.address_create.current.person_response.uuid).toBe(person.uuid),
  },
  {
    name: 'rename-unit form: every field the form sends, time_planning included',
    mirrors: naldo('routes/(app)/organisation/[uuid]/edit/unit/+page.svelte (and its +page.server.ts)'),
    query: `mutation RenameUnit($input: OrganisationUnitUpdateInput!, $at: DateTime!) {
      org_unit_update(input: $input) { current(at: $at) { name } }
    }`,
    variables: ({ unit, today }) => ({
      at: today,
      input: {
        uuid: unit.uuid,
        validity: { from: today },
        name: `${unit.name} (renamed)`,
        parent: unit.parent,
        org_unit_level: unit.level,
        time_planning: null,
        org_unit_type: unit.type,
        user_key: unit.userKey,
      },
    }),
    holds: (data, { unit }) => expect(data.org_unit_update.current.name).toBe(`${unit.name} (renamed)`),
  },
  {
    name: 'create-class form (admin, facets): the input the form action builds, without an end or IT system',
    mirrors: naldo('routes/(app)/admin/facet/[[facet]]/create/class/+page.svelte (and its +page.server.ts)'),
    query: `mutation CreateClass($input: ClassCreateInput!, $date: DateTime!) {
      class_create(input: $input) { current(at: $date) { name } }
    }`,
    variables: ({ klass, today }) => ({
      date: today,
      input: {
        facet_uuid: klass.facet,
        name: 'Shapes class',
        user_key: `shapes-${crypto.randomUUID().slice(0, 8)}`,
        scope: 'TEXT',
        validity: { from: today },
      },
    }),
    holds: (data) => expect(data.class_create.current.name).toBe('Shapes class'),
  },
  {
    name: 'edit-class form (admin, facets): the input the form action builds',
    mirrors: naldo(
      'routes/(app)/admin/facet/[[facet]]/edit/class/[class]/+page.svelte (and its +page.server.ts)',
    ),
    query: `mutation UpdateClass($input: ClassUpdateInput!, $date: DateTime!) {
      class_update(input: $input) { current(at: $date) { name } }
    }`,
    variables: ({ klass, today }) => ({
      date: today,
      input: {
        uuid: klass.uuid,
        facet_uuid: klass.facet,
        name: 'Shapes class (edited)',
        user_key: klass.userKey,
        validity: { from: today },
      },
    }),
    holds: (data) => expect(data.class_update.current.name).toBe('Shapes class (edited)'),
  },
];

describe("OS2mo's UI, in its documents' shapes, against the seeded stack (v29)", () => {
  let stack: TestStack;
  let authorization: string;
  let seeded: Seeded;

  beforeAll(async () => {
    stack = await startTestStack();
    authorization = `Bearer ${await stack.token('alice')}`;
    // The unit and person are read from the backend itself, so the cases do not lean on what they test.
    const uuid = referenceUnitUuids[0]!;
    const unit = (await (await stack.legacyFetch(`/service/ou/${uuid}/`)).json()) as any;
    const [manager] = (await (
      await stack.legacyFetch(`/service/ou/${uuid}/details/manager`)
    ).json()) as any[];
    seeded = {
      unit: {
        uuid,
        name: unit.name,
        userKey: unit.user_key,
        parent: unit.parent?.uuid ?? null,
        type: unit.org_unit_type?.uuid ?? null,
        level: unit.org_unit_level?.uuid ?? null,
      },
      person: { uuid: manager.person.uuid, name: manager.person.name },
      klass: await ownClass(),
      file: { name: 'shapes-report.csv', contents: 'uuid;name\n' },
      today: new Date().toISOString().slice(0, 10),
    };
    await writeFile(join(stack.legacy.exportDir, seeded.file.name), seeded.file.contents);
  }, 60_000);
  afterAll(async () => {
    await stack?.close();
  });

  /** A class written straight to the backend (2.4.0 `POST /service/f/{facet}/`), for the edit form. */
  async function ownClass(): Promise<Seeded['klass']> {
    const facet = stableUuid('facet:engagement_job_function');
    const userKey = `shapes-own-${crypto.randomUUID().slice(0, 8)}`;
    const written = await stack.legacyFetch(`/service/f/${facet}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Shapes own class', user_key: userKey, org_uuid: organisationUuid }),
    });
    expect(written.status).toBe(200);
    return { uuid: (await written.json()) as string, userKey, facet };
  }

  describe.each([
    ['reads', reads],
    ['forms', writes],
  ] as const)('%s', (_kind, cases) => {
    it.each(cases.map((each) => [each.name, each] as const))('%s', async (_name, shape) => {
      const { status, body } = await postGraphQL(
        stack,
        'v29',
        { query: shape.query, variables: shape.variables(seeded) },
        { authorization },
      );
      // A coordinate the gateway declares left out shows as that coordinate; any other error as its message.
      const problems = body.errors?.map((error: any) => error.extensions?.coordinate ?? error.message);
      expect(problems ?? [], `mirrors ${shape.mirrors}`).toEqual([]);
      expect(status).toBe(200);
      shape.holds?.(body.data, seeded);
    });
  });
});
