/**
 * Key sets and nesting of a JSON answer, written down from OS2mo's own test expectations: the contract
 * test compares a stand-in answer's structure with them, not its values (the fixtures differ).
 */
export type Shape =
  | { kind: 'string' | 'number' | 'boolean' | 'any' }
  | { kind: 'null' }
  | { kind: 'literal'; value: unknown }
  | { kind: 'object'; keys: Record<string, Shape>; optional: ReadonlySet<string> }
  | { kind: 'array'; item: Shape; nonEmpty: boolean }
  | { kind: 'nullable'; shape: Shape };

export const str: Shape = { kind: 'string' };
export const num: Shape = { kind: 'number' };
export const bool: Shape = { kind: 'boolean' };
export const anything: Shape = { kind: 'any' };
export const nothing: Shape = { kind: 'null' };

/** Exactly this value (an empty list, a fixed string). */
export const literal = (value: unknown): Shape => ({ kind: 'literal', value });

/** An object with exactly these keys; those named in `optional` may be absent. */
export const keys = (members: Record<string, Shape>, optional: readonly string[] = []): Shape => ({
  kind: 'object',
  keys: members,
  optional: new Set(optional),
});

/** A list whose every element has the shape; `nonEmpty` when an empty list would prove nothing. */
export const list = (item: Shape, { nonEmpty = true } = {}): Shape => ({ kind: 'array', item, nonEmpty });

/** The shape, or null. */
export const orNull = (shape: Shape): Shape => ({ kind: 'nullable', shape });

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Every way `value` differs from `shape`, each as `path: problem`; empty when it conforms. */
export function shapeProblems(shape: Shape, value: unknown, path = '$'): string[] {
  switch (shape.kind) {
    case 'any':
      return [];
    case 'null':
      return value === null ? [] : [`${path}: expected null, got ${typeName(value)}`];
    case 'string':
    case 'number':
    case 'boolean':
      return typeof value === shape.kind ? [] : [`${path}: expected ${shape.kind}, got ${typeName(value)}`];
    case 'literal':
      return JSON.stringify(value) === JSON.stringify(shape.value)
        ? []
        : [`${path}: expected ${JSON.stringify(shape.value)}, got ${JSON.stringify(value)?.slice(0, 80)}`];
    case 'nullable':
      return value === null ? [] : shapeProblems(shape.shape, value, path);
    case 'array': {
      if (!Array.isArray(value)) return [`${path}: expected a list, got ${typeName(value)}`];
      if (shape.nonEmpty && value.length === 0) return [`${path}: expected a non-empty list`];
      return value.flatMap((item, index) => shapeProblems(shape.item, item, `${path}[${index}]`));
    }
    case 'object': {
      if (typeName(value) !== 'object') return [`${path}: expected an object, got ${typeName(value)}`];
      const record = value as Record<string, unknown>;
      const missing = Object.keys(shape.keys).filter((key) => !(key in record) && !shape.optional.has(key));
      const extra = Object.keys(record).filter((key) => !(key in shape.keys));
      return [
        ...missing.map((key) => `${path}: missing key "${key}"`),
        ...extra.map((key) => `${path}: unexpected key "${key}"`),
        ...Object.entries(shape.keys).flatMap(([key, member]) =>
          key in record ? shapeProblems(member, record[key], `${path}.${key}`) : [],
        ),
      ];
    }
  }
}
