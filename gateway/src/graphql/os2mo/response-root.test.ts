import type { GraphQLResolveInfo } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLegacyLoaders } from '../../legacy/legacy-loaders.js';
import { json, startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import type { GraphQLContext } from '../context.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';
import { responseResolvers, type ResponseRoot } from './collection-resolvers.js';

/**
 * A response whose root holds only `{ uuid }`, as a mutation hands one back (OS2mo's `XResponse` of a
 * create or update): every field loads what it needs by itself.
 */
let backend: StubBackend;
let versions: StubbedVersions;
const manager = '0a000000-0000-4000-8000-000000000010';
beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((request, response) => {
    const path = request.url.replace(/\?.*$/, '');
    if (path === `/service/ou/${stubOrg.unit}/details/org_unit`) {
      return json(response, 200, [
        {
          uuid: stubOrg.unit,
          name: 'Finance',
          user_key: 'finance',
          validity: { from: '2020-01-01', to: null },
        },
      ]);
    }
    return answerStubOrg(request, response);
  });
  versions = stubbedVersions(backend);
});
afterAll(async () => {
  await versions.close();
  await backend.close();
});

const context = (): GraphQLContext => ({
  legacy: createLegacyLoaders(versions.legacy),
  principal: { subject: 's', username: undefined, clientId: undefined, roles: [], employeeUuid: undefined },
  today: '2024-06-01',
  calls: [],
});
const noArguments = {} as GraphQLResolveInfo;

describe('a response from its UUID alone', () => {
  it("reads a unit's current version and its versions", async () => {
    const unit = responseResolvers({ kind: 'unit' });
    const root: ResponseRoot = { uuid: stubOrg.unit };
    expect(await unit.current(root, {}, context())).toMatchObject({ uuid: stubOrg.unit, name: 'Finance' });
    expect(await unit.validities(root, {}, context(), noArguments)).toEqual([
      expect.objectContaining({ uuid: stubOrg.unit, name: 'Finance' }),
    ]);
  });

  it("finds a detail record through every unit's listing when nothing says where it is", async () => {
    const managers = responseResolvers({ kind: 'detail', type: 'manager' });
    expect(await managers.current({ uuid: manager }, {}, context())).toMatchObject({ uuid: manager });
  });

  it('reads only its own listing when the root names the unit', async () => {
    backend.received.length = 0;
    const managers = responseResolvers({ kind: 'detail', type: 'manager' });
    const found = await managers.current({ uuid: manager, __owner: { unit: stubOrg.unit } }, {}, context());
    expect(found).toMatchObject({ uuid: manager });
    expect(backend.received.map((request) => request.url.replace(/\?.*$/, ''))).toEqual([
      `/service/ou/${stubOrg.unit}/details/manager`,
    ]);
  });
});
