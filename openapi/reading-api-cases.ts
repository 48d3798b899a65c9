import { oscarOwnedUnitUuid } from '../legacy-service/src/fixture/organisation.js';
import type { ContractCase } from './contract-case.js';
import { findFixture, oscar, unknown } from './contract-fixture.js';

/**
 * Cases for OS2mo 2.4.0's reading API at `/api/v1` (`backend/mora/api/v1/reading_endpoints.py`): each type's
 * listing and `by_uuid` read, with 2.4.0's own test parameters (`backend/tests/api/v1/`), and its request
 * validation (FastAPI's 400 `E_INVALID_INPUT`, `backend/mora/app.py` `request_validation_handler`).
 */

const readingTypes = [
  ['address', 'Addresses'],
  ['association', 'Associations'],
  ['engagement', 'Engagements'],
  ['engagement_association', 'EngagementAssociations'],
  ['it', 'ItUsers'],
  ['kle', 'Kles'],
  ['leave', 'Leaves'],
  ['manager', 'Managers'],
  ['owner', 'Owners'],
  ['related_unit', 'RelatedUnits'],
  ['role', 'Roles'],
  ['employee', 'Employees'],
  ['org_unit', 'OrgUnits'],
] as const;

/** A seeded object of the type, to read by its UUID. */
function seededUuid(type: (typeof readingTypes)[number][0]): string {
  if (type === 'employee') return oscar;
  if (type === 'org_unit') return oscarOwnedUnitUuid;
  return findFixture(type)?.uuid ?? unknown;
}

/** Every validity, so a seeded record that has ended or not begun is found too. */
const allTime = { validity: '-infinity/infinity' };

export const readingApiCases: Record<string, ContractCase[]> = Object.fromEntries(
  readingTypes.flatMap(([type, plural]): [string, ContractCase[]][] => [
    [
      `apiV1List${plural}`,
      [
        { name: `every ${type} over all time`, query: allTime, status: 200 },
        {
          name: 'changed since 1930 (2.4.0 test_changed_since.py)',
          query: { ...allTime, changed_since: '1930-01-01 00:00:00' },
          status: 200,
        },
        {
          name: 'changed since 9999 (2.4.0 test_changed_since.py): nothing',
          query: { changed_since: '9999-01-01 00:00:00' },
          status: 200,
          empty: true,
        },
        {
          name: 'a changed_since that is no time',
          query: { changed_since: 'yesterday' },
          status: 400,
          errorKey: 'E_INVALID_INPUT',
        },
      ],
    ],
    [
      `apiV1${plural}ByUuid`,
      [
        {
          name: 'a seeded one and an unknown UUID (2.4.0 test_orgfunk.py: two uuids)',
          query: allTime,
          repeatedQuery: { uuid: [seededUuid(type), unknown] },
          status: 200,
        },
        {
          name: 'only an unknown UUID: nothing',
          repeatedQuery: { uuid: [unknown] },
          status: 200,
          empty: true,
        },
        { name: 'without a uuid', status: 400, errorKey: 'E_INVALID_INPUT' },
        {
          name: 'a malformed uuid',
          repeatedQuery: { uuid: ['not-a-uuid'] },
          status: 400,
          errorKey: 'E_INVALID_INPUT',
        },
      ],
    ],
  ]),
);
