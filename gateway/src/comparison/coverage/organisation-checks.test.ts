import { NoUndefinedVariablesRule, parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildVersions } from '../../graphql/versions.js';
import type { GraphQLRequestBody } from '../subjects.js';
import { runRecordCheck, type CheckOutcome, type EndpointCheck, type RecordCheck } from './coverage.js';
import { organisationChecks } from './organisation-checks.js';

/**
 * The checks on made-up answers: equal answers prove an endpoint, and a GraphQL answer that lost or
 * changed a record is found and named, so the report cannot say "proven" for a broken feature.
 */
const org = 'aaaaaaaa-0000-0000-0000-000000000000';
const unit = 'bbbbbbbb-0000-0000-0000-000000000001';
const person = 'cccccccc-0000-0000-0000-000000000001';
const detailTypes = {
  address: true,
  association: false,
  engagement: true,
  engagement_association: false,
  it: false,
  kle: false,
  leave: false,
  manager: true,
  org_unit: true,
  owner: false,
  related_unit: false,
  role: false,
};
const summary = {
  uuid: org,
  name: 'Kommune',
  user_key: 'root',
  child_count: 1,
  unit_count: 5,
  person_count: 9,
  engagement_count: 9,
  association_count: 0,
  leave_count: 0,
  role_count: 0,
  manager_count: 2,
};

const legacy: Record<string, unknown> = {
  '/service/o/': [{ uuid: org, name: 'Kommune', user_key: 'root' }],
  [`/service/o/${org}/`]: summary,
  [`/service/o/${org}/ou/?limit=1`]: { items: [{ uuid: unit, name: 'Town Hall' }] },
  [`/service/o/${org}/e/?limit=1`]: { items: [{ uuid: person, name: 'Alice Andersen' }] },
  [`/service/ou/${unit}/details/`]: detailTypes,
  '/service/e/autocomplete/?query=Alice': { items: [{ uuid: person, name: 'Alice Andersen' }] },
  [`/service/e/${person}/`]: { uuid: person, name: 'Alice Andersen', cpr_no: '0101701234' },
  '/service/e/cpr_lookup/?q=0101701234': { name: 'Alice Andersen', cpr_no: '0101701234' },
};

/** A GraphQL side answering by operation name; `broken` changes one answer the way a regression would. */
function graphqlSide(broken?: string) {
  const answers: Record<string, unknown> = {
    CoverageOrgCounts: { org: summary },
    CoverageDetailTypes: { org_units: { objects: [{ uuid: unit, detail_types: detailTypes }] } },
    CoverageSearch: { employees: { objects: [{ uuid: person, name: 'Alice Andersen' }] } },
    CoverageCprLookup: { cpr_lookup: { name: 'Alice Andersen' } },
  };
  if (broken === 'counts') answers.CoverageOrgCounts = { org: { ...summary, unit_count: 4 } };
  if (broken === 'detail_types')
    answers.CoverageDetailTypes = {
      org_units: { objects: [{ uuid: unit, detail_types: { ...detailTypes, address: false } }] },
    };
  if (broken === 'search') answers.CoverageSearch = { employees: { objects: [] } };
  if (broken === 'cpr') answers.CoverageCprLookup = { cpr_lookup: { name: 'Someone Else' } };
  return async (request: GraphQLRequestBody) => answers[request.operationName ?? ''];
}

function checksWith(broken?: string) {
  const graphql = graphqlSide(broken);
  const checks = organisationChecks({
    orgPath: `/service/o/${org}`,
    sampleSize: 1,
    read: async (path) => {
      if (!(path in legacy)) throw new Error(`unexpected read ${path}`);
      return legacy[path];
    },
    graphql,
  });
  return async (operationId: string): Promise<CheckOutcome> => {
    const check = await checks[operationId]!();
    return 'run' in check ? (check as EndpointCheck).run() : runRecordCheck(graphql, check as RecordCheck);
  };
}

describe('organisation checks', () => {
  it.each([
    ['getOrganisation', 'counts', `[${org}].unit_count`],
    ['getOrgUnitDetailTypes', 'detail_types', `[${unit}].address`],
    ['autocompleteEmployees', 'search', `Alice[${person}]`],
    ['lookupCpr', 'cpr', `[${person}][${person}].name`],
  ])('%s: equal answers prove it, a broken GraphQL answer is named', async (operationId, broken, path) => {
    const equal = await checksWith()(operationId);
    expect(equal.differences).toEqual([]);
    expect(equal.empty).toBe(false);

    const different = await checksWith(broken)(operationId);
    expect(
      different.differences.map((difference) => difference.path),
      JSON.stringify(different.differences),
    ).toEqual([expect.stringContaining(path)]);
  });

  it('names the person in the CPR lookup sample, never the number', async () => {
    const outcome = await checksWith()('lookupCpr');
    expect(outcome.paths).toEqual([`/service/e/cpr_lookup/?q=<cpr_no of ${person}>`]);
    expect(JSON.stringify(outcome)).not.toContain('0101701234');
  });
});

describe('the replacement queries the report shows', () => {
  // A reader copies them into GraphiQL: each must be valid v2 GraphQL once its `$` variables are declared.
  const v2 = buildVersions().find((version) => version.name === 'v2')!.schema;
  const rules = specifiedRules.filter((rule) => rule !== NoUndefinedVariablesRule);
  const checks = organisationChecks({
    orgPath: `/service/o/${org}`,
    sampleSize: 1,
    read: async (path) => legacy[path],
    graphql: graphqlSide(),
  });

  it.each(Object.keys(checks))('%s', async (operationId) => {
    const { graphql } = await checks[operationId]!();
    const errors = validate(v2, parse(`{ ${graphql} }`), rules).map((error) => error.message);
    expect(errors, graphql).toEqual([]);
  });
});
