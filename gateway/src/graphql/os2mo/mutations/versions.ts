import { Kind, parse, type DocumentNode } from 'graphql';
import { stepTypeDefs, versionSteps } from '../older-versions.js';
import { newestMutationOptions, type Os2moMutationOptions } from './resolvers.js';
import type { Omission } from './omissions.js';

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
 * version ladder down to it applied (`older-versions.ts`; a rung naming a coordinate the SDL lacks fails).
 */
export function mutationVersion(
  newestTypeDefs: string,
  version: Os2moVersion,
): { typeDefs: string; fields: string[]; options: Os2moMutationOptions; omits: Omission[] } {
  let typeDefs = newestTypeDefs;
  let options = newestMutationOptions;
  const omits: Omission[] = [];
  for (const step of versionSteps) {
    if (Number(step.name.slice(1)) < version || !step.writes) continue;
    const { writes } = step;
    typeDefs = stepTypeDefs(typeDefs, {
      name: step.name,
      undoes: step.undoes,
      notInPrintout: writes.notInPrintout?.map((omission) => omission.coordinate),
      nullDefaults: writes.nullDefaults,
      descriptions: writes.descriptions,
    });
    options = { ...options, ...writes.options };
    omits.push(...(writes.notInPrintout ?? []), ...(writes.omits ?? []));
  }
  return { typeDefs, fields: mutationFields(parse(typeDefs)), options, omits };
}
