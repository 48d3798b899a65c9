import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';

/**
 * `EngagementFilter`'s job function, engagement type and IT account, as OS2mo's `engagement_predicate`
 * (`mora/graphapi/resolvers.py`@HEAD) decides them: null is no filter, a class filter keeps the engagements
 * whose class it matches, and an IT-account filter keeps those an IT account names (no 2.x account does).
 * An engagement's `managers(filter:)` is the managers query OS2mo seeds with the engagement's unit
 * (`mora/graphapi/collections/engagement.py`@HEAD).
 */
let backend: StubBackend;
let versions: StubbedVersions;
beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer(answerStubOrg);
  versions = stubbedVersions(backend);
});
afterAll(async () => {
  await versions.close();
  await backend.close();
});

const other = '0a000000-0000-4000-8000-0000000000ee';

describe('an engagement filter', () => {
  it.each([
    ['its job function', `job_function: {uuids: ["${stubOrg.jobFunction}"]}`, 1],
    ['another job function', `job_function: {uuids: ["${other}"]}`, 0],
    ['an engagement type, where it has none', `engagement_type: {uuids: ["${stubOrg.jobFunction}"]}`, 0],
    ['an engagement type of null', 'engagement_type: null, job_function: null', 1],
    ['an IT account (2.x accounts name no engagement)', 'ituser: {}', 0],
    ['an IT account of null', 'ituser: null', 1],
  ])('by %s keeps what OS2mo keeps', async (_what, member, count) => {
    const { body } = await versions.ask(
      'v30',
      `query($person: UUID!) { engagements(filter: {employee: {uuids: [$person]}, ${member}}) {
        objects { uuid } } }`,
      { variables: { person: stubOrg.person } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.engagements.objects).toHaveLength(count);
  });
});

describe("an engagement's managers with OS2mo's filter", () => {
  it("keep the unit's managers the bound filter matches, less the person with exclude_self", async () => {
    const manager = '0a000000-0000-4000-8000-000000000010';
    const { body } = await versions.ask(
      'v30',
      `query($person: UUID!, $manager: UUID!) { engagements(filter: {employee: {uuids: [$person]}}) {
        objects { current {
          all: managers(filter: {}) { uuid }
          named: managers(filter: {uuids: [$manager]}) { uuid }
          keyed: managers(filter: {user_keys: ["nobody"]}) { uuid }
          others: managers(filter: {}, exclude_self: true) { uuid }
          held: managers(filter: {employee: {uuids: [$person]}}) { uuid }
          unheld: managers(filter: {employee: {uuids: [$manager]}}) { uuid }
        } } } }`,
      { variables: { person: stubOrg.person, manager } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.engagements.objects[0].current).toEqual({
      all: [{ uuid: manager }],
      named: [{ uuid: manager }],
      keyed: [],
      others: [],
      // The bound filter's other members narrow as the managers collection's do (the position is the person's).
      held: [{ uuid: manager }],
      unheld: [],
    });
  });
});
