import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';

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
beforeEach(() => {
  backend.received.length = 0;
});

/** The legacy paths the stub received, without their query strings. */
const receivedPaths = () => backend.received.map((request) => request.url.replace(/\?.*$/, '')).sort();

const referenceSelection = `
  objects {
    uuid
    name
    managers {
      manager_type { user_key }
      employee { name engagements { job_function { user_key } } }
    }
  }`;

describe('the reference query', () => {
  it('answers v2 from the manager and engagement listings alone', async () => {
    const { body } = await versions.ask(
      'v2',
      `{ org_units(filter: { uuids: ["${stubOrg.unit}"] }) { ${referenceSelection} } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units.objects).toEqual([
      {
        uuid: stubOrg.unit,
        name: 'Finance',
        managers: [
          {
            manager_type: { user_key: 'head' },
            employee: { name: 'Anne Hansen', engagements: [{ job_function: { user_key: 'accountant' } }] },
          },
        ],
      },
    ]);
    // The unit's name comes from the manager record's embedded unit: no read of the unit itself.
    expect(receivedPaths()).toEqual([
      `/service/e/${stubOrg.person}/details/engagement`,
      `/service/ou/${stubOrg.unit}/details/manager`,
    ]);
  });

  it('shows v1 as validities per UUID, with the employee as a list', async () => {
    const { body } = await versions.ask(
      'v1',
      `{ org_units(filter: { uuids: ["${stubOrg.unit}"] }) { uuid ${referenceSelection} } }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.org_units).toEqual([
      {
        uuid: stubOrg.unit,
        objects: [
          {
            uuid: stubOrg.unit,
            name: 'Finance',
            managers: [
              {
                manager_type: { user_key: 'head' },
                employee: [
                  { name: 'Anne Hansen', engagements: [{ job_function: { user_key: 'accountant' } }] },
                ],
              },
            ],
          },
        ],
      },
    ]);
  });
});

describe('entity fields', () => {
  it('reads a unit the query names but no listing embeds, once however often it is asked for', async () => {
    const { body } = await versions.ask(
      'v2',
      `{
        a: org_units(filter: { uuids: ["${stubOrg.otherUnit}"] }) { objects { name user_key } }
        b: org_units(filter: { uuids: ["${stubOrg.otherUnit}"] }) { objects { name } }
      }`,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.a.objects).toEqual([{ name: 'Payroll', user_key: 'payroll' }]);
    expect(body.data.b.objects).toEqual([{ name: 'Payroll' }]);
    expect(receivedPaths().filter((path) => path === `/service/ou/${stubOrg.otherUnit}/`)).toHaveLength(1);
  });

  it('leaves out a unit the legacy service does not know', async () => {
    const unknown = '0a000000-0000-4000-8000-0000000000ff';
    const { body } = await versions.ask(
      'v2',
      `{ org_units(filter: { uuids: ["${unknown}"] }) { objects { name } } }`,
    );
    expect(body).toEqual({ data: { org_units: { objects: [] } } });
  });
});
