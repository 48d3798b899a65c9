import type { HeldNone } from './backend-holds-none.js';

/**
 * The check that a "2.x holds none" entry (`backend-holds-none.ts`) is true of the contract
 * (`openapi/legacy-service.yaml`): no schema of the 2.x record OS2mo's field is read from, read or write,
 * carries a property the field would be read from. An entry that fails names a fact the backend holds, which is
 * work to serve, not an empty answer.
 */

/** Where an OS2mo field's value would come from: the contract schemas of one record, and its property names. */
export interface ContractSource {
  schemas: readonly string[];
  properties: readonly string[];
}

/** OS2mo's types, each with the contract's schemas of the 2.x record it is read from (reads and writes). */
export const recordSchemas: Readonly<Record<string, readonly string[]>> = {
  OrganisationUnit: [
    'OrgUnit',
    'OrgUnitRef',
    'OrgUnitListItem',
    'OrgUnitSearchItem',
    'OrgUnitTreeNode',
    'OrgUnitCreate',
    'OrgUnitEdit',
  ],
  ITUser: ['ItUser', 'ItUserCreate', 'ItUserEdit'],
  // An address's and an association's edit is the contract's generic `DetailEdit`.
  Address: ['Address', 'AddressCreate'],
  Association: ['Association', 'AssociationCreate'],
  Engagement: ['Engagement', 'EngagementCreate', 'EngagementEdit'],
  Manager: ['Manager', 'ManagerCreate', 'ManagerEdit'],
  Class: ['Class', 'ClassWithFacet', 'ClassChild', 'ClassWrite'],
  Facet: ['Facet', 'FacetRef', 'FacetWithClasses', 'FacetClassListing'],
  ITSystem: ['ItSystem', 'ItSystemRef'],
};

/**
 * Fields whose value the linked record would hold rather than their own type's (a link read backwards), and
 * fields the contract would name otherwise; the rest are read from their own type's record under the field's
 * name less OS2mo's `_response(s)`, `_uuid(s)` and `_model` endings, singular or plural.
 */
const readFrom: Readonly<Record<string, { type?: string; properties: readonly string[] }>> = {
  'ITUser.addresses': { type: 'Address', properties: ['ituser', 'it_user', 'it'] },
  'Engagement.itusers': { type: 'ITUser', properties: ['engagement', 'engagements'] },
  'Facet.children': { type: 'Facet', properties: ['parent'] },
  'Class.it_system': { properties: ['it_system', 'itsystem'] },
  'Address.ituser': { properties: ['ituser', 'it_user', 'it'] },
  'Association.it_user': { properties: ['it_user', 'ituser', 'it'] },
  'OrganisationUnit.unit_hierarchy': { properties: ['org_unit_hierarchy', 'unit_hierarchy'] },
  'OrganisationUnit.org_unit_hierarchy': { properties: ['org_unit_hierarchy', 'unit_hierarchy'] },
  'ITUser.rolebindings': { properties: ['rolebindings', 'rolebinding', 'role_bindings'] },
};

/** The record and properties an entry's field would be read from. */
export function contractSourceOf(coordinate: string): ContractSource {
  const [type = '', field = ''] = coordinate.split('.');
  const base = field.replace(/_(responses?|uuids?|model)$/, '');
  const special = readFrom[`${type}.${base}`];
  const properties = special?.properties ?? [...new Set([base, base.replace(/s$/, ''), `${base}s`])];
  const schemas = recordSchemas[special?.type ?? type];
  if (!schemas) throw new Error(`${coordinate}: no contract record is mapped for ${special?.type ?? type}.`);
  return { schemas, properties };
}

interface SchemaObject {
  properties?: Record<string, SchemaObject>;
  allOf?: SchemaObject[];
}

/** A record schema's own property names: its properties, its `allOf` parts', and an edit's `data`. */
function propertyNames(schema: SchemaObject | undefined): Set<string> {
  const names = new Set<string>();
  for (const part of [schema, ...(schema?.allOf ?? [])]) {
    for (const [name, property] of Object.entries(part?.properties ?? {})) {
      names.add(name);
      if (name === 'data') for (const inner of Object.keys(property.properties ?? {})) names.add(inner);
    }
  }
  return names;
}

/**
 * Every entry the contract contradicts, as `Type.field: Schema.property` lines (empty: all hold). A schema the
 * map names but the contract lacks is reported too, so the map cannot silently check nothing.
 */
export function heldNoneContradictions(
  entries: readonly Pick<HeldNone, 'coordinate'>[],
  contract: { components?: { schemas?: Record<string, unknown> } },
): string[] {
  const schemas = (contract.components?.schemas ?? {}) as Record<string, SchemaObject>;
  return entries.flatMap(({ coordinate }) => {
    const source = contractSourceOf(coordinate);
    return source.schemas.flatMap((name) => {
      if (!(name in schemas)) return [`${coordinate}: the contract has no schema ${name}`];
      const carried = propertyNames(schemas[name]);
      return source.properties
        .filter((property) => carried.has(property))
        .map((property) => `${coordinate}: ${name}.${property}`);
    });
  });
}
