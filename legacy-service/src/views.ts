import type {
  ClassRecord,
  EmployeeAttrs,
  EngagementAttrs,
  IsoDate,
  ItSystem,
  ItUserAttrs,
  ManagerAttrs,
  Organisation,
  OrgUnit,
  OrgUnitAttrs,
  OwnerAttrs,
  Temporal,
  Validity,
  Version,
} from './model.js';
import type { OrgData } from './org-data.js';
import { resolutionDate, versionAt } from './time.js';

/** Response shapes of the legacy API, built from stored versions as of a date. */

export function validityOf(version: Validity): Validity {
  return { from: version.from, to: version.to };
}

export function organisationRef(organisation: Organisation) {
  return { name: organisation.name, user_key: organisation.user_key, uuid: organisation.uuid };
}

export function classView(record: ClassRecord) {
  return {
    uuid: record.uuid,
    name: record.name,
    user_key: record.user_key,
    example: record.example,
    scope: record.scope,
  };
}

export function itSystemView(system: ItSystem) {
  return {
    uuid: system.uuid,
    name: system.name,
    user_key: system.user_key,
    system_type: system.system_type,
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

export function orgUnitRef(data: OrgData, uuid: string, date: IsoDate) {
  const unit = data.findOrgUnit(uuid);
  const version = unit && bestVersion(unit, date);
  if (!unit || !version) return null;
  return { uuid, name: version.name, user_key: version.user_key, validity: validityOf(version) };
}

export function personRef(data: OrgData, uuid: string | null, date: IsoDate) {
  if (uuid === null) return null;
  const employee = data.findEmployee(uuid);
  const version = employee && bestVersion(employee, date);
  if (!version) return null;
  return {
    uuid,
    name: fullName(version),
    givenname: version.givenname,
    surname: version.surname,
  };
}

function classRef(data: OrgData, uuid: string | null) {
  if (uuid === null) return null;
  const record = data.findClass(uuid);
  return record ? classView(record) : null;
}

export function fullName(attrs: EmployeeAttrs): string {
  return `${attrs.givenname} ${attrs.surname}`;
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
  org_unit_type: ReturnType<typeof classView> | null;
  org_unit_level: ReturnType<typeof classView> | null;
  parent: OrgUnitView | null;
  child_count: number;
  validity: Validity;
};

/** The full unit with its parent chain, `parent: null` at the top. */
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
  const build = (index: number): OrgUnitView | null => {
    const entry = index === -1 ? { unit, version } : ancestors[index];
    if (!entry) return null;
    const chain = ancestors.slice(index + 1).reverse();
    return {
      uuid: entry.unit.uuid,
      name: entry.version.name,
      user_key: entry.version.user_key,
      location: chain.map((ancestor) => ancestor.version.name).join(' / '),
      org: organisation,
      org_unit_type: classRef(data, entry.version.org_unit_type),
      org_unit_level: classRef(data, entry.version.org_unit_level),
      parent: build(index + 1),
      child_count: data.childrenOf(entry.unit.uuid, at).length,
      validity: validityOf(entry.version),
    };
  };
  return build(-1) as OrgUnitView;
}

export function employeeView(data: OrgData, uuid: string, version: Version<EmployeeAttrs>) {
  return {
    uuid,
    name: fullName(version),
    givenname: version.givenname,
    surname: version.surname,
    user_key: version.user_key,
    org: organisationRef(data.defaultOrganisation()),
    validity: validityOf(version),
  };
}

export function employeeListItem(uuid: string, version: Version<EmployeeAttrs>) {
  return {
    uuid,
    name: fullName(version),
    givenname: version.givenname,
    surname: version.surname,
    user_key: version.user_key,
    validity: validityOf(version),
  };
}

export function engagementView(data: OrgData, uuid: string, version: Version<EngagementAttrs>, at: IsoDate) {
  const date = resolutionDate(version, at);
  return {
    uuid,
    user_key: version.user_key,
    person: personRef(data, version.person, date),
    org_unit: orgUnitRef(data, version.org_unit, date),
    job_function: classRef(data, version.job_function),
    engagement_type: classRef(data, version.engagement_type),
    validity: validityOf(version),
  };
}

export function managerView(data: OrgData, uuid: string, version: Version<ManagerAttrs>, at: IsoDate) {
  const date = resolutionDate(version, at);
  return {
    uuid,
    user_key: version.user_key,
    employee_uuid: version.person,
    person: personRef(data, version.person, date),
    org_unit: orgUnitRef(data, version.org_unit, date),
    manager_type: classRef(data, version.manager_type),
    manager_level: classRef(data, version.manager_level),
    responsibility: version.responsibility.flatMap((responsibility) => classRef(data, responsibility) ?? []),
    validity: validityOf(version),
  };
}

export function ownerView(data: OrgData, uuid: string, version: Version<OwnerAttrs>, at: IsoDate) {
  const date = resolutionDate(version, at);
  return {
    uuid,
    user_key: version.user_key,
    owner: personRef(data, version.owner, date),
    org_unit: version.org_unit === null ? null : orgUnitRef(data, version.org_unit, date),
    person: personRef(data, version.person, date),
    validity: validityOf(version),
  };
}

export function itUserView(data: OrgData, uuid: string, version: Version<ItUserAttrs>, at: IsoDate) {
  const date = resolutionDate(version, at);
  const system = data.findItSystem(version.itsystem);
  return {
    uuid,
    user_key: version.user_key,
    itsystem: system
      ? { uuid: system.uuid, name: system.name, user_key: system.user_key, system_type: system.system_type }
      : null,
    person: personRef(data, version.person, date),
    org_unit: version.org_unit === null ? null : orgUnitRef(data, version.org_unit, date),
    validity: validityOf(version),
  };
}
