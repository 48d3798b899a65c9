import { notFound } from './errors.js';
import {
  collections,
  detailCollection,
  type ClassRecord,
  type DarAddress,
  type DetailType,
  type Employee,
  type Facet,
  type IsoDate,
  type ItSystem,
  type Organisation,
  type OrgUnit,
  type Temporal,
} from './model.js';
import type { IndexDefinition, Store, StoredEntity } from './store/index.js';
import { versionAt } from './time.js';

const byOrgUnit = 'by_org_unit';
const byPerson = 'by_person';

/** Index keys from the fields of every version: a field may hold one UUID or a list (`org_units`). */
function versionKeys(...fields: string[]) {
  return (value: StoredEntity): string[] => {
    const keys = new Set<string>();
    for (const version of (value as unknown as Temporal<Record<string, unknown>>).versions) {
      for (const field of fields) {
        const key = version[field];
        if (typeof key === 'string') keys.add(key);
        if (Array.isArray(key)) for (const item of key) if (typeof item === 'string') keys.add(item);
      }
    }
    return [...keys];
  };
}

/** Secondary indexes the reads need: children by parent, details by unit and by person. */
export const orgDataIndexes: IndexDefinition[] = [
  { collection: collections.orgUnit, name: 'by_parent', keys: versionKeys('parent') },
  { collection: collections.class, name: 'by_facet', keys: (value) => [String(value.facet)] },
  ...Object.values(detailCollection).flatMap((collection) => [
    { collection, name: byOrgUnit, keys: versionKeys('org_unit', 'org_units') },
    { collection, name: byPerson, keys: versionKeys('person') },
  ]),
  { collection: collections.owner, name: 'by_owner', keys: versionKeys('owner') },
  { collection: collections.employee, name: 'by_cpr', keys: versionKeys('cpr_no') },
  {
    collection: collections.class,
    name: 'by_parent',
    keys: (value) => (value.parent ? [String(value.parent)] : []),
  },
];

/** Typed, read-only access to the store's collections. */
export class OrgData {
  constructor(readonly store: Pick<Store, 'get' | 'all' | 'count' | 'byIndex'>) {}

  private typed<T>(value: StoredEntity | undefined): T | undefined {
    return value as T | undefined;
  }

  organisations(): Organisation[] {
    return [...this.store.all(collections.organisation)] as unknown as Organisation[];
  }

  organisation(uuid: string): Organisation {
    const found = this.typed<Organisation>(this.store.get(collections.organisation, uuid));
    if (!found) throw notFound.organisation(uuid);
    return found;
  }

  /** The single organisation this service holds; creates default to it. */
  defaultOrganisation(): Organisation {
    const [first] = this.organisations();
    if (!first) throw new Error('The store holds no organisation.');
    return first;
  }

  orgUnit(uuid: string): OrgUnit {
    const found = this.findOrgUnit(uuid);
    if (!found) throw notFound.orgUnit(uuid);
    return found;
  }

  findOrgUnit(uuid: string): OrgUnit | undefined {
    return this.typed<OrgUnit>(this.store.get(collections.orgUnit, uuid));
  }

  orgUnits(): OrgUnit[] {
    return [...this.store.all(collections.orgUnit)] as unknown as OrgUnit[];
  }

  childrenOf(uuid: string, at: IsoDate): OrgUnit[] {
    const candidates = this.store.byIndex(collections.orgUnit, 'by_parent', uuid) as unknown as OrgUnit[];
    return candidates.filter((unit) => versionAt(unit, at)?.parent === uuid);
  }

  employee(uuid: string): Employee {
    const found = this.findEmployee(uuid);
    if (!found) throw notFound.employee(uuid);
    return found;
  }

  findEmployee(uuid: string): Employee | undefined {
    return this.typed<Employee>(this.store.get(collections.employee, uuid));
  }

  employees(): Employee[] {
    return [...this.store.all(collections.employee)] as unknown as Employee[];
  }

  class(uuid: string): ClassRecord {
    const found = this.findClass(uuid);
    if (!found) throw notFound.class(uuid);
    return found;
  }

  findClass(uuid: string): ClassRecord | undefined {
    return this.typed<ClassRecord>(this.store.get(collections.class, uuid));
  }

  facets(): Facet[] {
    return [...this.store.all(collections.facet)] as unknown as Facet[];
  }

  /** A facet by UUID or by its user key (`manager_type`), as the legacy paths accept both. */
  facet(key: string): Facet {
    const found =
      this.typed<Facet>(this.store.get(collections.facet, key)) ??
      this.facets().find((f) => f.user_key === key);
    if (!found) throw notFound.facet(key);
    return found;
  }

  classesOf(facetUuid: string): ClassRecord[] {
    return this.store.byIndex(collections.class, 'by_facet', facetUuid) as unknown as ClassRecord[];
  }

  itSystems(): ItSystem[] {
    return [...this.store.all(collections.itsystem)] as unknown as ItSystem[];
  }

  findItSystem(uuid: string): ItSystem | undefined {
    return this.typed<ItSystem>(this.store.get(collections.itsystem, uuid));
  }

  itSystem(uuid: string): ItSystem {
    const found = this.findItSystem(uuid);
    if (!found) throw notFound.itSystem(uuid);
    return found;
  }

  detail<A>(type: DetailType, uuid: string): Temporal<A> {
    const found = this.typed<Temporal<A>>(this.store.get(detailCollection[type], uuid));
    if (!found) throw notFound.detail(type, uuid);
    return found;
  }

  detailsOfUnit<A>(type: DetailType, unitUuid: string): Temporal<A>[] {
    return this.store.byIndex(detailCollection[type], byOrgUnit, unitUuid) as unknown as Temporal<A>[];
  }

  detailsOfPerson<A>(type: DetailType, personUuid: string): Temporal<A>[] {
    return this.store.byIndex(detailCollection[type], byPerson, personUuid) as unknown as Temporal<A>[];
  }

  /** People whose CPR number is `cpr` in some version. */
  employeesByCpr(cpr: string): Employee[] {
    return this.store.byIndex(collections.employee, 'by_cpr', cpr) as unknown as Employee[];
  }

  childClassesOf(classUuid: string): ClassRecord[] {
    return this.store.byIndex(collections.class, 'by_parent', classUuid) as unknown as ClassRecord[];
  }

  findFacet(key: string): Facet | undefined {
    return (
      this.typed<Facet>(this.store.get(collections.facet, key)) ??
      this.facets().find((f) => f.user_key === key)
    );
  }

  /** An address of the stand-in's small copy of the address register (DAR), by its UUID. */
  findDarAddress(uuid: string): DarAddress | undefined {
    return this.typed<DarAddress>(this.store.get(collections.darAddress, uuid));
  }

  /** Every address of the register copy. */
  darAddresses(): DarAddress[] {
    return [...this.store.all(collections.darAddress)] as unknown as DarAddress[];
  }

  findDetail<A>(type: DetailType, uuid: string): Temporal<A> | undefined {
    return this.typed<Temporal<A>>(this.store.get(detailCollection[type], uuid));
  }

  /** Records of a type in force on `date` (OS2mo's organisation counts). */
  countActive(type: DetailType, date: IsoDate): number {
    let count = 0;
    for (const entity of this.store.all(detailCollection[type])) {
      if (versionAt(entity as unknown as Temporal<unknown>, date)) count += 1;
    }
    return count;
  }

  ownedBy<A>(personUuid: string): Temporal<A>[] {
    return this.store.byIndex(collections.owner, 'by_owner', personUuid) as unknown as Temporal<A>[];
  }
}
