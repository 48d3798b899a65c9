import { olderOmissions } from './older-omissions.js';
import type { OmissionList } from './schema-conformance.js';
import { v30Omissions } from './v30-omissions.js';

/** OS2mo's versions the gateway serves, oldest first. */
const os2moVersionNumbers = [21, 22, 23, 24, 25, 26, 27, 28, 29, 30] as const;

/** The versions held to an OS2mo printout, and what each leaves out beyond v30's list. */
const ownLists: ReadonlyMap<number, OmissionList> = new Map([
  ...Object.entries(olderOmissions).map(([name, list]) => [Number(name.slice(1)), list] as const),
  [29, {}],
  [30, {}],
]);

/** The entries two lists share, with the first one's reasons. */
function shared(first: OmissionList, second: OmissionList): OmissionList {
  return Object.fromEntries(Object.entries(first).filter(([coordinate]) => coordinate in second));
}

/**
 * A version's own list: its printout's, or for a version between two printouts what both neighbours leave
 * out (a coordinate OS2mo had before and after it, it had in between).
 */
function ownListOf(number: number): OmissionList {
  const own = ownLists.get(number);
  if (own) return own;
  const printed = [...ownLists.keys()].sort((a, b) => a - b);
  const below = printed.filter((each) => each < number).at(-1);
  const above = printed.find((each) => each > number);
  if (below === undefined || above === undefined) return {};
  return shared(ownLists.get(below)!, ownLists.get(above)!);
}

const byVersion: ReadonlyMap<string, OmissionList> = new Map(
  os2moVersionNumbers.map((number) => [`v${number}`, { ...v30Omissions, ...ownListOf(number) }]),
);

/**
 * What OS2mo's schema of `version` has and the gateway leaves out, each with its reason (the lists the
 * conformance test holds to OS2mo's printouts); none for a version that is not OS2mo's (v1, v2).
 */
export function declaredOmissionsOf(version: string): OmissionList | undefined {
  return byVersion.get(version);
}
