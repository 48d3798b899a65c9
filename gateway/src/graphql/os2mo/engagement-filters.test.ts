import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';

/**
 * `EngagementFilter`'s job function, engagement type and IT account, as OS2mo's `engagement_predicate`
 * (`mora/graphapi/resolvers.py`@HEAD) decides them: null is no filter, a class filter keeps the engagements
 * whose class it matches, and an IT-account filter keeps those an IT account names (no 2.x account does).
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
