import { Kind, parse, type DocumentNode } from 'graphql';
import { writeOmissionsOf, type Omission } from '../ledger/index.js';
import { stepTypeDefs, versionSteps } from '../older-versions.js';
import { newestMutationOptions, type Os2moMutationOptions } from './resolvers.js';

/** The versions this module serves, oldest first: OS2mo serves v21 to v30. */
export const os2moVersions = [21, 22, 23, 24, 25, 26, 27, 28, 29, 30] as const;
export type Os2moVersion = (typeof os2moVersions)[number];

/** The names of the `Mutation` fields an SDL document defines. */
function mutationFields(document: DocumentNode): string[] {
  return document.definitions.flatMap((definition) =>
    definition.kind === Kind.OBJECT_TYPE_DEFINITION && definition.name.value === 'Mutation'
      ? (definition.fields ?? []).map((field) => field.name.value)
      : [],
  );
}

/**
 * A version's SDL, its Mutation fields and resolver options: v30's, with the write half of every rung of the
 * version ladder down to it applied (`older-versions.ts`; a rung naming a coordinate the SDL lacks fails), and
 * what it leaves out beyond v30's omissions (the ledger's `writeOmissionsOf`).
 */
export function mutationVersion(
  newestTypeDefs: string,
  version: Os2moVersion,
): { typeDefs: string; fields: string[]; options: Os2moMutationOptions; omits: Omission[] } {
  let typeDefs = newestTypeDefs;
  let options = newestMutationOptions;
  for (const step of versionSteps) {
    if (Number(step.name.slice(1)) < version || !step.writes) continue;
    const { writes } = step;
    typeDefs = stepTypeDefs(typeDefs, {
      name: step.name,
      undoes: step.undoes,
      notInPrintout: writes.notInPrintout,
      nullDefaults: writes.nullDefaults,
      descriptions: writes.descriptions,
    });
    options = { ...options, ...writes.options };
  }
  return { typeDefs, fields: mutationFields(parse(typeDefs)), options, omits: writeOmissionsOf(version) };
}
