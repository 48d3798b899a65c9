import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, startStubBackend, type StubBackend } from '../../legacy/stub-backend.test-helpers.js';
import { answerStubOrg, stubbedVersions, type StubbedVersions } from '../stub-org.test-helpers.js';

/** The organisation reads on a stub backend: what the resolvers ask the legacy service for, and answer. */
let backend: StubBackend;
let versions: StubbedVersions;
let cprAnswer: unknown;
let cprStatus = 200;
const hit = { uuid: '11111111-0000-0000-0000-000000000001', name: 'Anne Hansen', attrs: [] };
const hitVersion = { ...hit, user_key: 'anne', validity: { from: '2010-01-01', to: null } };
beforeAll(async () => {
  backend = await startStubBackend();
  backend.answer((request, response) => {
    const path = request.url.replace(/\?.*$/, '');
    if (path === '/service/e/cpr_lookup/') return json(response, cprStatus, cprAnswer);
    if (path === '/service/e/autocomplete/') return json(response, 200, { items: [hit] });
    if (path === `/service/e/${hit.uuid}/details/employee`) return json(response, 200, [hitVersion]);
    return answerStubOrg(request, response);
  });
  versions = stubbedVersions(backend);
});
afterAll(async () => {
  await versions.close();
  await backend.close();
});
beforeEach(() => {
  backend.received.length = 0;
  cprStatus = 200;
});

describe('cpr_lookup', () => {
  it('sends the number as q, once, and answers the name only', async () => {
    cprAnswer = { name: 'Anne Hansen', cpr_no: '0101701234' };
    const { body } = await versions.ask('v2', '{ cpr_lookup(cpr_number: "0101701234") { name } }');
    expect(body).toEqual({ data: { cpr_lookup: { name: 'Anne Hansen' } } });
    expect(backend.received.map((request) => request.url)).toEqual(['/service/e/cpr_lookup/?q=0101701234']);
  });

  it('is null when the backend has no CPR register (OS2mo answers {})', async () => {
    cprAnswer = {};
    const { body } = await versions.ask('v1', '{ cpr_lookup(cpr_number: "0101701234") { name } }');
    expect(body).toEqual({ data: { cpr_lookup: null } });
  });

  it('refuses a malformed number with V_CPR_NOT_VALID and never echoes the number', async () => {
    // OS2mo's refusal carries the number it was sent (`cpr`); the caller must not see it again.
    cprStatus = 400;
    cprAnswer = {
      error: true,
      status: 400,
      error_key: 'V_CPR_NOT_VALID',
      description: 'Not a valid CPR number.',
      cpr: '3201011234',
    };
    const { body } = await versions.ask('v2', '{ cpr_lookup(cpr_number: "3201011234") { name } }');
    expect(body).toMatchObject({
      data: { cpr_lookup: null },
      errors: [
        {
          message: 'Not a valid CPR number.',
          path: ['cpr_lookup'],
          extensions: { code: 'BAD_USER_INPUT', error_key: 'V_CPR_NOT_VALID' },
        },
      ],
    });
    expect(JSON.stringify(body)).not.toContain('3201011234');
  });
});

describe('filter: { query }', () => {
  it('encodes the text into one autocomplete read and answers from its hits', async () => {
    const { body } = await versions.ask(
      'v2',
      '{ employees(filter: { query: "Anne & co" }) { objects { uuid name } } }',
    );
    expect(body).toEqual({ data: { employees: { objects: [{ uuid: hit.uuid, name: hit.name }] } } });
    expect(backend.received).toHaveLength(1);
    const url = new URL(backend.received[0]!.url, 'http://legacy.test');
    expect(url.pathname).toBe('/service/e/autocomplete/');
    expect(url.searchParams.get('query')).toBe('Anne & co');
  });

  it('answers versions from the hits, without reading each hit in full first', async () => {
    // `validities` and `child_count` need the UUID only; a full read would be a wasted, earlier round.
    const { body } = await versions.ask(
      'v2',
      '{ employees(filter: { query: "Anne" }) { objects { uuid validities { name } } } }',
    );
    expect(body).toEqual({
      data: { employees: { objects: [{ uuid: hit.uuid, validities: [{ name: hit.name }] }] } },
    });
    expect(backend.received.map((request) => request.url.replace(/\?.*$/, ''))).toEqual([
      '/service/e/autocomplete/',
      `/service/e/${hit.uuid}/details/employee`,
    ]);
  });
});
