import type { GraphQLContext, Source } from '../context.js';
import type { LegacyRecord } from '../../legacy/legacy-loaders.js';

/**
 * The person's version in force on the source's date (`details/employee`): a person record itself has no
 * validity or seniority. A version listed by `validities` carries them already.
 */
async function versionOf(source: Source, context: GraphQLContext): Promise<LegacyRecord | null> {
  if (source.validity) return source;
  const versions = await context.legacy.employeeVersions(source.uuid, source.__at, 'present');
  return versions[0] ?? null;
}

/** `Employee.validity`: when the person's version holds (open at either end). */
export async function employeeValidity(source: Source, _args: unknown, context: GraphQLContext) {
  const version = await versionOf(source, context);
  return (version?.validity as object | undefined) ?? { from: null, to: null };
}

/** `Employee.seniority`: the date the person's seniority counts from, if the Service API holds one. */
export async function employeeSeniority(source: Source, _args: unknown, context: GraphQLContext) {
  const version = await versionOf(source, context);
  return typeof version?.seniority === 'string' ? version.seniority : null;
}

/**
 * `Engagement.is_primary`: whether it is its person's primary engagement, from the person's engagement
 * listing with the Service API's `calculate_primary` (one read per person and day, shared by the page).
 */
export async function engagementIsPrimary(source: Source, _args: unknown, context: GraphQLContext) {
  const person = (source.person as LegacyRecord | null | undefined)?.uuid;
  if (!person) return false;
  const listing = await context.legacy.employeeDetails('engagement', person, {
    at: source.__at,
    calculatePrimary: true,
  });
  return listing.find((engagement) => engagement.uuid === source.uuid)?.is_primary === true;
}
