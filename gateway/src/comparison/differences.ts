import type { NormalObject, NormalValue } from './normal-form.js';

/**
 * One place where the two sides disagree. A side that has nothing at the path (an entity only the other
 * side returned) leaves its property out.
 */
export interface Difference {
  path: string;
  legacy?: NormalValue;
  graphql?: NormalValue;
}

const isObject = (value: NormalValue): value is NormalObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `org_units[<uuid>].managers[<uuid>].manager_type.user_key`: field names dotted, keys and indexes bracketed. */
function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number' || !identifier.test(key)) return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

function collect(legacy: NormalValue, graphql: NormalValue, path: string, found: Difference[]): void {
  if (isObject(legacy) && isObject(graphql)) {
    const keys = [...new Set([...Object.keys(legacy), ...Object.keys(graphql)])].sort();
    for (const key of keys) {
      const at = childPath(path, key);
      if (!Object.hasOwn(graphql, key)) found.push({ path: at, legacy: legacy[key]! });
      else if (!Object.hasOwn(legacy, key)) found.push({ path: at, graphql: graphql[key]! });
      else collect(legacy[key]!, graphql[key]!, at, found);
    }
    return;
  }
  if (Array.isArray(legacy) && Array.isArray(graphql)) {
    for (let index = 0; index < Math.max(legacy.length, graphql.length); index += 1) {
      const at = childPath(path, index);
      if (index >= graphql.length) found.push({ path: at, legacy: legacy[index]! });
      else if (index >= legacy.length) found.push({ path: at, graphql: graphql[index]! });
      else collect(legacy[index]!, graphql[index]!, at, found);
    }
    return;
  }
  if (JSON.stringify(legacy) !== JSON.stringify(graphql)) found.push({ path, legacy, graphql });
}

/**
 * Every difference between two comparable forms, in path order; an empty list means the data is equal.
 *
 * @example
 * findDifferences({ name: 'A' }, { name: 'B' }); // [{ path: 'name', legacy: 'A', graphql: 'B' }]
 */
export function findDifferences(legacy: NormalValue, graphql: NormalValue): Difference[] {
  const found: Difference[] = [];
  collect(legacy, graphql, '', found);
  return found;
}
