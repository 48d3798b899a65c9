import type { FieldMapping, TypeMapping } from './type-mappings.js';

export type Input = Record<string, unknown>;

/**
 * How one GraphQL version spells a type's input: the names it uses for the mapping's fields, and what an
 * explicit `null` means in an update. The mapping itself (`typeMappings`) is the same for every version.
 */
export interface InputShape {
  /** The version's input name → the mapping's name, e.g. `{ employee: 'person' }`. */
  renames?: Readonly<Record<string, string>>;
  /**
   * In an update, `null` clears the field (`'clear'`, HTTP PATCH) or keeps it as if left out (`'keep'`:
   * OS2mo's update inputs, whose fields default to `null`). A create always leaves a `null` out.
   */
  nullInUpdate: 'clear' | 'keep';
}

/**
 * The input in the mapping's names. A renamed field fills its target only when the target itself is not
 * given, so OS2mo's deprecated `employee` still works beside `person` and never overrides it.
 */
export function canonicalInput(input: Input, shape: InputShape): Input {
  const renamed: Input = { ...input };
  for (const [name, target] of Object.entries(shape.renames ?? {})) {
    if (!(name in input)) continue;
    const alias = input[name];
    const own = renamed[target];
    delete renamed[name];
    if (own === undefined || (own === null && alias !== null)) renamed[target] = alias;
  }
  return renamed;
}

function legacyValue(field: FieldMapping, given: unknown): unknown {
  switch (field.kind) {
    case 'ref':
      return given === null ? null : { uuid: given };
    case 'refs':
      return ((given as unknown[] | null) ?? []).map((uuid) => ({ uuid }));
    case 'value':
      return given;
  }
}

/**
 * The Service API body fields of one write, from the input in the mapping's names: fields left out stay out
 * (an edit keeps their value), `null` clears or is left out as the shape says, and a create fills what the
 * mapping sends for an absent field (a vacant manager's `person: null`).
 *
 * @example
 * legacyFields(typeMappings.manager, { org_unit: unit, person: null }, 'update', { nullInUpdate: 'clear' });
 * // → { org_unit: { uuid: unit }, person: null }
 */
export function legacyFields(
  mapping: TypeMapping,
  input: Input,
  write: 'create' | 'update',
  shape: InputShape,
): Input {
  const body: Input = {};
  for (const [name, field] of Object.entries(mapping)) {
    const given = input[name];
    const absent =
      given === undefined || (given === null && (write === 'create' || shape.nullInUpdate === 'keep'));
    if (!absent) body[field.legacy] = legacyValue(field, given);
    else if (write === 'create' && field.absentOnCreate !== undefined)
      body[field.legacy] = field.absentOnCreate;
  }
  return body;
}
