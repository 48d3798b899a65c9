import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { createLogger } from '../../observability/logger.js';
import { createGatewayMetrics } from '../../observability/metrics.js';
import { createObservability } from '../../observability/observability.js';
import { answerStubOrg, stubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';

/**
 * `Employee.cpr_number` (and its older name `cpr_no`) in OS2mo's versions: served as OS2mo serves it, every read
 * on record, never the number.
 */
let backend: StubBackend;
let versions: StubbedVersions;
const lines: Record<string, any>[] = [];
const cpr = '0101701234';
const person = {
  uuid: stubOrg.person,
  name: 'Anne Hansen',
  givenname: 'Anne',
  surname: 'Hansen',
  user_key: 'anne',
};
const noNumber = { ...person, uuid: '0a000000-0000-4000-8000-0000000000ff', cpr_no: '' };

beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((request, response) => {
    const path = request.url.replace(/\?.*$/, '');
    if (path === `/service/e/${stubOrg.person}/`) return json(response, 200, { ...person, cpr_no: cpr });
    if (path === `/service/e/${noNumber.uuid}/`) return json(response, 200, noNumber);
    // The other unit's manager is the same person: a person link evaluated for two parents.
    if (path === `/service/ou/${stubOrg.otherUnit}/details/manager`) {
      return json(response, 200, [
        {
          uuid: '0a000000-0000-4000-8000-0000000000fe',
          person: { uuid: stubOrg.person, name: person.name },
          manager_type: null,
          org_unit: { uuid: stubOrg.otherUnit },
          responsibility: [],
          validity: { from: '2020-01-01', to: null },
        },
      ]);
    }
    if (path === `/service/o/${stubOrg.organisation}/e/`) {
      const items = [{ ...person, cpr_no: cpr }, noNumber];
      return json(response, 200, { items, offset: 0, total: items.length });
    }
    return answerStubOrg(request, response);
  });
  const logger = createLogger({
    level: 'info',
    destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
  });
  versions = stubbedVersions(backend, {
    observability: createObservability({ logger, metrics: createGatewayMetrics({ processMetrics: false }) }),
  });
});
afterAll(async () => {
  await versions.close();
  await backend.close();
});
beforeEach(() => {
  lines.length = 0;
});

const cprReads = () => lines.filter((line) => line.cpr_read);
const cprSearches = () => lines.filter((line) => line.cpr_search).map((line) => line.cpr_search);

describe('Employee.cpr_number', () => {
  it('answers the number from the person record and logs who read whose, without the number', async () => {
    const { body } = await versions.ask(
      'v30',
      'query($uuid: UUID!) { persons(filter: {uuids: [$uuid]}) { objects { current { name cpr_number } } } }',
      { variables: { uuid: stubOrg.person } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({
      persons: { objects: [{ current: { name: 'Anne Hansen', cpr_number: cpr } }] },
    });
    expect(cprReads()).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'CPR number read',
        cpr_read: {
          road: 'graphql',
          employee: stubOrg.person,
          subject: 'admin',
          client: 'test',
          gateway_request_id: expect.any(String),
          client_request_id: null,
        },
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(cpr);
  });

  it('logs nothing when the number is not asked for, or the person has none', async () => {
    await versions.ask(
      'v30',
      'query($uuid: UUID!) { persons(filter: {uuids: [$uuid]}) { objects { current { name } } } }',
      {
        variables: { uuid: stubOrg.person },
      },
    );
    const { body } = await versions.ask(
      'v30',
      'query($uuid: UUID!) { persons(filter: {uuids: [$uuid]}) { objects { current { cpr_number } } } }',
      { variables: { uuid: noNumber.uuid } },
    );
    expect(body.data.persons.objects).toEqual([{ current: { cpr_number: null } }]);
    expect(cprReads()).toEqual([]);
  });

  it('is not in v1 or v2', async () => {
    const { body } = await versions.ask('v2', '{ employees { objects { cpr_number } } }');
    expect(body.errors?.[0]?.message).toMatch(/Cannot query field "cpr_number"/);
  });
});

// OS2mo's older name of the number, in every printout (v21, v22, v25, v29 = v30's SDL), deprecated there.
describe('Employee.cpr_no', () => {
  const both = `query($uuid: UUID!) { employees(filter: {uuids: [$uuid]}) { objects { current {
    cpr_number cpr_no
  } } } }`;

  it.each(['v21', 'v22', 'v25', 'v29', 'v30'])(
    '%s answers the same number as cpr_number, each read on record as every CPR read',
    async (version) => {
      const { body } = await versions.ask(version, both, { variables: { uuid: stubOrg.person } });
      expect(body.errors).toBeUndefined();
      expect(body.data.employees.objects).toEqual([{ current: { cpr_number: cpr, cpr_no: cpr } }]);
      lines.length = 0;
      const { body: alone } = await versions.ask(
        version,
        'query($uuid: UUID!) { employees(filter: {uuids: [$uuid]}) { objects { current { cpr_no } } } }',
        { variables: { uuid: stubOrg.person } },
      );
      expect(alone.data.employees.objects).toEqual([{ current: { cpr_no: cpr } }]);
      expect(cprReads()).toEqual([
        expect.objectContaining({
          msg: 'CPR number read',
          cpr_read: expect.objectContaining({ road: 'graphql', employee: stubOrg.person, subject: 'admin' }),
        }),
      ]);
      expect(JSON.stringify(lines)).not.toContain(cpr);
    },
  );

  it('is withheld, as cpr_number is, from a caller without a CPR_READ_ROLES role, and not logged', async () => {
    const gated = stubbedVersions(backend, {
      observability: createObservability({
        logger: createLogger({
          level: 'info',
          destination: { write: (line: string) => void lines.push(JSON.parse(line)) },
        }),
        metrics: createGatewayMetrics({ processMetrics: false }),
      }),
      cprReads: { roles: ['cpr_reader'], clients: undefined },
    });
    try {
      const { body } = await gated.ask('v22', both, { variables: { uuid: stubOrg.person } });
      expect(body.errors).toBeUndefined();
      expect(body.data.employees.objects).toEqual([{ current: { cpr_number: null, cpr_no: null } }]);
      expect(cprReads()).toEqual([]);
    } finally {
      await gated.close();
    }
  });

  it('is not in v2', async () => {
    const { body } = await versions.ask('v2', '{ employees { objects { cpr_no } } }');
    expect(body.errors?.[0]?.message).toMatch(/Cannot query field "cpr_no"/);
  });
});

describe('EmployeeFilter.cpr_numbers', () => {
  it('finds the people with those numbers, and logs one CPR search for the request: how many, whom it found', async () => {
    const { body } = await versions.ask(
      'v30',
      'query($numbers: [CPR!]) { persons(filter: {cpr_numbers: $numbers}) { objects { uuid } } }',
      { variables: { numbers: [cpr, '3112991234'] } },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data).toEqual({ persons: { objects: [{ uuid: stubOrg.person }] } });
    // One line for the request (issue 35): the road, the count, whom the numbers found, the gateway's own id.
    expect(cprSearches()).toEqual([
      expect.objectContaining({
        road: 'graphql',
        endpoint: '/graphql/v30',
        count: 2,
        subjects: [stubOrg.person],
        subject: 'admin',
        client: 'test',
        gateway_request_id: expect.any(String),
      }),
    ]);
    expect(cprReads()).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain(cpr);
  });

  it("on a person link logs one line per request, however many objects' links it narrows", async () => {
    const { body } = await versions.ask(
      'v30',
      `query($numbers: [CPR!]) { org_units { objects { current {
        managers { person(filter: {cpr_numbers: $numbers}) { uuid } }
      } } } }`,
      { variables: { numbers: [cpr] } },
    );
    expect(body.errors).toBeUndefined();
    const people = JSON.stringify(body.data).split(stubOrg.person).length - 1;
    expect(people).toBe(2);
    expect(cprSearches()).toEqual([expect.objectContaining({ count: 1, subjects: [stubOrg.person] })]);
  });

  it('is no filter when null, and logs nothing then', async () => {
    const { body } = await versions.ask(
      'v30',
      '{ persons(filter: {cpr_numbers: null}) { objects { uuid } } }',
    );
    expect(body.errors).toBeUndefined();
    expect(cprReads()).toEqual([]);
    expect(cprSearches()).toEqual([]);
  });
});
