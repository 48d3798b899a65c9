import { unitConfiguration } from './frontend-settings.js';
import {
  extensionFields,
  type AddressAttrs,
  type AssociationAttrs,
  type ClassRecord,
  type DarAddress,
  type DetailType,
  type EmployeeAttrs,
  type EngagementAssociationAttrs,
  type EngagementAttrs,
  type Facet,
  type IsoDate,
  type ItSystem,
  type ItUserAttrs,
  type KleAttrs,
  type LeaveAttrs,
  type ManagerAttrs,
  type Organisation,
  type OrgUnit,
  type OrgUnitAttrs,
  type OwnerAttrs,
  type RelatedUnitAttrs,
  type RoleAttrs,
  type Temporal,
  type Validity,
  type Version,
} from './model.js';
import type { OrgData } from './org-data.js';
import { covers, resolutionDate, versionAt } from './time.js';

/**
 * Response shapes of the legacy API, built from stored versions as of a date, with OS2mo 2.4.0's key sets:
 * embedded classes are "full" classes (`owner`, `full_name`, `facet`, `top_level_facet`), embedded people
 * and units are OS2mo's minimal ones. With `only_primary_uuid` every embedded object is `{uuid}` only.
 */

export interface ViewOptions {
  /** The read date; references are resolved as of it (moved inside the record's own validity). */
  at: IsoDate;
  onlyPrimaryUuid?: boolean;
  /** Compute `is_primary` on engagements (null otherwise, as in OS2mo). */
  calculatePrimary?: boolean;
}

export function validityOf(version: Validity): Validity {
  return { from: version.from, to: version.to };
}

export function organisationRef(organisation: Organisation) {
  return { name: organisation.name, user_key: organisation.user_key, uuid: organisation.uuid };
}

/** A class as facet listings show it. */
export function classView(record: ClassRecord) {
  return {
    uuid: record.uuid,
    name: record.name,
    user_key: record.user_key,
    example: record.example,
    scope: record.scope,
    owner: record.owner ?? null,
  };
}

export function facetRef(facet: Facet) {
  return { uuid: facet.uuid, user_key: facet.user_key, description: facet.description };
}

/** A class with OS2mo's "full" details: the parent chain's names and the facets. */
export function classFullView(data: OrgData, record: ClassRecord) {
  const chain: ClassRecord[] = [record];
  const seen = new Set([record.uuid]);
  for (let parent = record.parent; parent && !seen.has(parent);) {
    seen.add(parent);
    const found = data.findClass(parent);
    if (!found) break;
    chain.push(found);
    parent = found.parent;
  }
  const facetOf = (item: ClassRecord) => {
    const facet = data.findFacet(item.facet);
    return facet ? facetRef(facet) : null;
  };
  return {
    ...classView(record),
    full_name: chain
      .map((item) => item.name)
      .reverse()
      .join(' - '),
    top_level_facet: facetOf(chain[chain.length - 1]!),
    facet: facetOf(record),
  };
}

export function itSystemView(system: ItSystem) {
  return {
    uuid: system.uuid,
    name: system.name,
    user_key: system.user_key,
    system_type: system.system_type,
    reference: null,
    validity: validityOf(system.validity),
  };
}

/** The version to show for a reference: the one valid on the date, else the nearest one. */
function bestVersion<A>(entity: Temporal<A>, date: IsoDate): Version<A> | undefined {
  return (
    versionAt(entity, date) ??
    [...entity.versions].reverse().find((version) => version.from <= date) ??
    entity.versions[0]
  );
}

export function fullName(attrs: Pick<EmployeeAttrs, 'givenname' | 'surname'>): string {
  return `${attrs.givenname} ${attrs.surname}`;
}

/** OS2mo's name fields of a person, shared by every shape that shows one. */
export function personNames(version: EmployeeAttrs) {
  const nicknameGiven = version.nickname_givenname ?? '';
  const nicknameSurname = version.nickname_surname ?? '';
  return {
    name: fullName(version),
    givenname: version.givenname,
    surname: version.surname,
    nickname: `${nicknameGiven} ${nicknameSurname}`.trim(),
    nickname_givenname: nicknameGiven,
    nickname_surname: nicknameSurname,
    seniority: version.seniority ?? '',
  };
}

export function orgUnitListItem(data: OrgData, unit: OrgUnit, version: Version<OrgUnitAttrs>, at: IsoDate) {
  return {
    uuid: unit.uuid,
    name: version.name,
    user_key: version.user_key,
    validity: validityOf(version),
    child_count: data.childrenOf(unit.uuid, at).length,
  };
}

type OrgUnitView = {
  uuid: string;
  name: string;
  user_key: string;
  location: string;
  org: ReturnType<typeof organisationRef>;
  org_unit_type: ReturnType<typeof classFullView> | null;
  org_unit_level: ReturnType<typeof classFullView> | null;
  time_planning: ReturnType<typeof classFullView> | null;
  user_settings: { orgunit: Record<string, unknown> };
  parent: OrgUnitView | null;
  validity: Validity;
};

/**
 * The full unit with its parent chain, `parent: null` at the top. `location` is the ancestors' names from the
 * top down, joined by a backslash as OS2mo joins them (`''` for a top unit).
 */
export function orgUnitView(
  data: OrgData,
  unit: OrgUnit,
  version: Version<OrgUnitAttrs>,
  at: IsoDate,
): OrgUnitView {
  const ancestors: { unit: OrgUnit; version: Version<OrgUnitAttrs> }[] = [];
  const seen = new Set([unit.uuid]);
  let parentUuid = version.parent;
  while (parentUuid !== null && !seen.has(parentUuid)) {
    seen.add(parentUuid);
    const parent = data.findOrgUnit(parentUuid);
    const parentVersion = parent && versionAt(parent, at);
    if (!parent || !parentVersion) break;
    ancestors.push({ unit: parent, version: parentVersion });
    parentUuid = parentVersion.parent;
  }
  const organisation = organisationRef(data.defaultOrganisation());
  const fullClass = (uuid: string | null) => {
    const record = uuid === null ? undefined : data.findClass(uuid);
    return record ? classFullView(data, record) : null;
  };
  const build = (index: number): OrgUnitView | null => {
    const entry = index === -1 ? { unit, version } : ancestors[index];
    if (!entry) return null;
    const chain = ancestors.slice(index + 1).reverse();
    return {
      uuid: entry.unit.uuid,
      name: entry.version.name,
      user_key: entry.version.user_key,
      location: chain.map((ancestor) => ancestor.version.name).join('\\'),
      org: organisation,
      org_unit_type: fullClass(entry.version.org_unit_type),
      org_unit_level: fullClass(entry.version.org_unit_level),
      time_planning: fullClass(entry.version.time_planning ?? null),
      // OS2mo 2.4.0 (`service/orgunit.py:539-553`): the unit's settings over its parent's over the global ones;
      // without a configuration database all three are the defaults.
      user_settings: { orgunit: { ...unitConfiguration } },
      parent: build(index + 1),
      validity: validityOf(entry.version),
    };
  };
  return build(-1) as OrgUnitView;
}

/** `/e/{uuid}/`: OS2mo's full person (without validity: `details/employee` has the versions). */
export function employeeView(data: OrgData, uuid: string, version: Version<EmployeeAttrs>) {
  return {
    uuid,
    ...personNames(version),
    user_key: version.user_key,
    cpr_no: version.cpr_no ?? null,
    org: organisationRef(data.defaultOrganisation()),
  };
}

/** An item of `/o/{org}/e/`: the full person, as OS2mo lists them. */
export function employeeListItem(data: OrgData, uuid: string, version: Version<EmployeeAttrs>) {
  return employeeView(data, uuid, version);
}

/**
 * Builds the records of every detail type as of one read. References are resolved lazily and at most once
 * per read for classes (listings repeat the same few classes many times).
 */
export class DetailViews {
  private readonly classes = new Map<string, unknown>();

  constructor(
    private readonly data: OrgData,
    private readonly options: ViewOptions,
  ) {}

  private get onlyUuid(): boolean {
    return this.options.onlyPrimaryUuid === true;
  }

  private base(uuid: string, version: Version<{ user_key: string }>) {
    return { uuid, user_key: version.user_key, validity: validityOf(version) };
  }

  classRef(uuid: string | null): unknown {
    if (uuid === null) return null;
    if (this.onlyUuid) return { uuid };
    if (!this.classes.has(uuid)) {
      const record = this.data.findClass(uuid);
      this.classes.set(uuid, record ? classFullView(this.data, record) : null);
    }
    return this.classes.get(uuid);
  }

  /** OS2mo shows some classes (leave types, visibility) without the full details. */
  private plainClassRef(uuid: string | null): unknown {
    if (uuid === null) return null;
    if (this.onlyUuid) return { uuid };
    const record = this.data.findClass(uuid);
    return record ? classView(record) : null;
  }

  personRef(uuid: string | null, date: IsoDate): unknown {
    if (uuid === null) return null;
    if (this.onlyUuid) return { uuid };
    const employee = this.data.findEmployee(uuid);
    const version = employee && bestVersion(employee, date);
    return version ? { uuid, ...personNames(version) } : null;
  }

  orgUnitRef(uuid: string | null, date: IsoDate): unknown {
    if (uuid === null) return null;
    if (this.onlyUuid) return { uuid };
    const unit = this.data.findOrgUnit(uuid);
    const version = unit && bestVersion(unit, date);
    if (!version) return null;
    return { uuid, name: version.name, user_key: version.user_key, validity: validityOf(version) };
  }

  /** An engagement another record points at, as the engagement reader shows it (or `{uuid}`). */
  private engagementRef(uuid: string | null, date: IsoDate): unknown {
    if (uuid === null) return null;
    if (this.onlyUuid) return { uuid };
    const engagement = this.data.findDetail<EngagementAttrs>('engagement', uuid);
    const version = engagement && bestVersion(engagement, date);
    return version ? this.engagement(uuid, version) : { uuid };
  }

  private date(version: Validity): IsoDate {
    return resolutionDate(version, this.options.at);
  }

  render(type: DetailType, uuid: string, version: Version<unknown>): unknown {
    switch (type) {
      case 'address':
        return this.address(uuid, version as Version<AddressAttrs>);
      case 'association':
        return this.association(uuid, version as Version<AssociationAttrs>);
      case 'engagement':
        return this.engagement(uuid, version as Version<EngagementAttrs>);
      case 'engagement_association':
        return this.engagementAssociation(uuid, version as Version<EngagementAssociationAttrs>);
      case 'it':
        return this.itUser(uuid, version as Version<ItUserAttrs>);
      case 'kle':
        return this.kle(uuid, version as Version<KleAttrs>);
      case 'leave':
        return this.leave(uuid, version as Version<LeaveAttrs>);
      case 'manager':
        return this.manager(uuid, version as Version<ManagerAttrs>);
      case 'owner':
        return this.owner(uuid, version as Version<OwnerAttrs>);
      case 'related_unit':
        return this.relatedUnit(uuid, version as Version<RelatedUnitAttrs>);
      case 'role':
        return this.role(uuid, version as Version<RoleAttrs>);
    }
  }

  address(uuid: string, version: Version<AddressAttrs>) {
    const date = this.date(version);
    const scope = this.data.findClass(version.address_type)?.scope ?? 'TEXT';
    const record: Record<string, unknown> = {
      ...this.base(uuid, version),
      address_type: this.classRef(version.address_type),
      ...addressPresentation(scope, version.value, (key) => this.data.findDarAddress(key)),
    };
    if (version.visibility !== null) record.visibility = this.plainClassRef(version.visibility);
    if (version.person !== null) record.person = this.personRef(version.person, date);
    if (version.org_unit !== null) record.org_unit = this.orgUnitRef(version.org_unit, date);
    if (version.engagement !== null) record.engagement = this.engagementRef(version.engagement, date);
    return record;
  }

  association(uuid: string, version: Version<AssociationAttrs>) {
    const date = this.date(version);
    return {
      ...this.base(uuid, version),
      person: this.personRef(version.person, date),
      org_unit: this.orgUnitRef(version.org_unit, date),
      association_type: this.classRef(version.association_type),
      primary: this.classRef(version.primary),
      dynamic_classes: version.dynamic_classes.map((item) => this.classRef(item)),
      substitute: this.personRef(version.substitute, date),
    };
  }

  engagement(uuid: string, version: Version<EngagementAttrs>) {
    const date = this.date(version);
    const extensions = version.extensions ?? {};
    return {
      ...this.base(uuid, version),
      person: this.personRef(version.person, date),
      org_unit: this.orgUnitRef(version.org_unit, date),
      job_function: this.classRef(version.job_function),
      engagement_type: this.classRef(version.engagement_type),
      primary: this.classRef(version.primary ?? null),
      is_primary: this.options.calculatePrimary ? this.isPrimary(uuid, version) : null,
      fraction: version.fraction ?? null,
      ...Object.fromEntries(extensionFields.map((field) => [field, extensions[field] ?? null])),
    };
  }

  /**
   * OS2mo ranks a person's engagements by the scope (a number) of their `primary` class: the engagement with
   * the highest is the primary one; a person with one engagement has it as primary.
   */
  private isPrimary(uuid: string, version: Version<EngagementAttrs>): boolean {
    const date = this.date(version);
    const others = this.data
      .detailsOfPerson<EngagementAttrs>('engagement', version.person)
      .flatMap((engagement) => {
        const current = engagement.versions.find((item) => covers(item, date));
        return current && current.person === version.person
          ? [{ uuid: engagement.uuid, version: current }]
          : [];
      });
    if (others.length <= 1) return true;
    const priority = (primary: string | null | undefined) => {
      const scope = primary ? this.data.findClass(primary)?.scope : undefined;
      const value = Number(scope);
      return scope === undefined || scope === null || Number.isNaN(value) ? -1 : value;
    };
    const best = Math.max(...others.map((other) => priority(other.version.primary)));
    const own = priority(version.primary);
    if (own < 0 || own < best) return false;
    // Ties go to the first by UUID, so exactly one engagement is primary.
    const first = others
      .filter((other) => priority(other.version.primary) === best)
      .map((o) => o.uuid)
      .sort()[0];
    return first === uuid;
  }

  engagementAssociation(uuid: string, version: Version<EngagementAssociationAttrs>) {
    const date = this.date(version);
    return {
      ...this.base(uuid, version),
      engagement: this.engagementRef(version.engagement, date),
      org_unit: this.orgUnitRef(version.org_unit, date),
      engagement_association_type: this.classRef(version.engagement_association_type),
    };
  }

  itUser(uuid: string, version: Version<ItUserAttrs>) {
    const date = this.date(version);
    const system = this.data.findItSystem(version.itsystem);
    return {
      ...this.base(uuid, version),
      itsystem: this.onlyUuid ? { uuid: version.itsystem } : system ? itSystemView(system) : null,
      person: this.personRef(version.person, date),
      org_unit: this.orgUnitRef(version.org_unit, date),
    };
  }

  kle(uuid: string, version: Version<KleAttrs>) {
    const date = this.date(version);
    return {
      ...this.base(uuid, version),
      kle_aspect: version.kle_aspect.map((item) => this.classRef(item)),
      kle_number: this.classRef(version.kle_number),
      org_unit: this.orgUnitRef(version.org_unit, date),
    };
  }

  leave(uuid: string, version: Version<LeaveAttrs>) {
    const date = this.date(version);
    return {
      ...this.base(uuid, version),
      person: this.personRef(version.person, date),
      leave_type: this.plainClassRef(version.leave_type),
      engagement: this.engagementRef(version.engagement, date),
    };
  }

  manager(uuid: string, version: Version<ManagerAttrs>) {
    const date = this.date(version);
    return {
      ...this.base(uuid, version),
      // Not in OS2mo: kept because existing clients of this service read it.
      employee_uuid: version.person,
      person: this.personRef(version.person, date),
      org_unit: this.orgUnitRef(version.org_unit, date),
      manager_type: this.classRef(version.manager_type),
      manager_level: this.classRef(version.manager_level),
      responsibility: version.responsibility.map((item) => this.classRef(item)),
    };
  }

  owner(uuid: string, version: Version<OwnerAttrs>) {
    const date = this.date(version);
    return {
      ...this.base(uuid, version),
      owner_inference_priority: version.owner_inference_priority ?? null,
      owner: version.owner_inference_priority
        ? this.inferredOwner(version.person, version.owner_inference_priority, date)
        : this.personRef(version.owner, date),
      org_unit: this.orgUnitRef(version.org_unit, date),
      person: this.personRef(version.person, date),
    };
  }

  /**
   * OS2mo's inferred owner of a person: the manager of the unit of the person's first engagement (or
   * association), tried in the order the priority names.
   */
  private inferredOwner(person: string | null, priority: string, date: IsoDate): unknown {
    if (person === null) return null;
    const unitsOf = (type: 'engagement' | 'association') =>
      this.data
        .detailsOfPerson<{ person: string | null; org_unit: string }>(type, person)
        .flatMap((record) => {
          const current = record.versions.find((item) => covers(item, date));
          return current && current.person === person ? [current.org_unit] : [];
        });
    const order: ('engagement' | 'association')[] =
      priority === 'association_priority' ? ['association', 'engagement'] : ['engagement', 'association'];
    for (const type of order) {
      for (const unit of unitsOf(type)) {
        for (const manager of this.data.detailsOfUnit<ManagerAttrs>('manager', unit)) {
          const current = manager.versions.find((item) => covers(item, date));
          if (current?.person && current.person !== person) return this.personRef(current.person, date);
        }
      }
    }
    return null;
  }

  relatedUnit(uuid: string, version: Version<RelatedUnitAttrs>) {
    const date = this.date(version);
    const units = version.org_units.map((unit) => ({ unit, ref: this.orgUnitRef(unit, date) }));
    const name = (entry: { ref: unknown; unit: string }) =>
      (entry.ref as { name?: string } | null)?.name ?? entry.unit;
    return {
      ...this.base(uuid, version),
      org_unit: units.sort((a, b) => name(a).localeCompare(name(b), 'en')).map((entry) => entry.ref),
    };
  }

  role(uuid: string, version: Version<RoleAttrs>) {
    const date = this.date(version);
    return {
      ...this.base(uuid, version),
      person: this.personRef(version.person, date),
      org_unit: this.orgUnitRef(version.org_unit, date),
      role_type: this.classRef(version.role_type),
    };
  }
}

/** What OS2mo 2.4.0 shows for a DAR address it cannot look up (`service/address_handler/dar.py`, `NOT_FOUND`). */
export const darNotFound = 'Ukendt';

/** A DAR address written as OS2mo 2.4.0 writes it (`_address_string_chunks` in `address_handler/dar.py`). */
export function darAddressText(address: DarAddress): string {
  const floorOrDoor = address.etage !== null || address.dør !== null;
  return [
    address.vejnavn,
    address.husnr !== null ? ` ${address.husnr}` : '',
    floorOrDoor ? ',' : '',
    address.etage !== null ? ` ${address.etage}.` : '',
    address.dør !== null ? ` ${address.dør}` : '',
    ', ',
    address.supplerendebynavn !== null ? `${address.supplerendebynavn}, ` : '',
    `${address.postnr} ${address.postnrnavn}`,
  ].join('');
}

/**
 * How OS2mo shows an address value by its type's scope: `href` a link where one exists, `name` what a person
 * reads. A DAR address is looked up in the register (`lookupDar`): its text, and a map link where DAR has
 * coordinates; one the register does not have is OS2mo's `Ukendt` without a link.
 */
export function addressPresentation(
  scope: string | null,
  value: string,
  lookupDar: (uuid: string) => DarAddress | undefined = () => undefined,
) {
  if (scope === 'DAR') {
    const address = lookupDar(value);
    if (address === undefined) return { href: null, name: darNotFound, value, value2: null };
    const href =
      address.x !== null && address.y !== null
        ? `https://www.openstreetmap.org/?mlon=${address.x}&mlat=${address.y}&zoom=16`
        : null;
    return { href, name: darAddressText(address), value, value2: null };
  }
  const href = scope === 'EMAIL' ? `mailto:${value}` : scope === 'PHONE' ? `tel:${value}` : null;
  return { href, name: value, value, value2: null };
}
