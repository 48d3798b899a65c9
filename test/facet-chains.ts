/**
 * The red team's request of issue 35: aliases of a facet's classes, their facet's classes and theirs, which a
 * few cached legacy reads answer however large it grows.
 */

/** `turns` of a facet's classes and their facet's: `classes { facet { classes { … } } }`. */
export function facetChain(turns: number): string {
  let inner = 'classes { uuid name user_key }';
  for (let turn = 0; turn < turns; turn += 1) inner = `classes { uuid name facet { ${inner} } }`;
  return inner;
}

/** The red team's request: `count` aliases of the chain from one facet, on v30 (`current`) or v2. */
export function facetChains(version: 'v2' | 'v30', count: number, turns: number): string {
  const facet = 'facets(filter: { user_keys: ["engagement_job_function"] })';
  const objects =
    version === 'v30' ? `objects { current { ${facetChain(turns)} } }` : `objects { ${facetChain(turns)} }`;
  return `{ ${Array.from({ length: count }, (_, i) => `a${i}: ${facet} { ${objects} }`).join(' ')} }`;
}
