import { describe, expect, it } from 'vitest';
import { contentHash, nextBoundary, ownerOf, sighting } from './backend-objects.js';
import { touchedBy } from './backend-writes.js';

const person = '11111111-1111-4111-8111-111111111111';
const unit = '22222222-2222-4222-8222-222222222222';
const other = '33333333-3333-4333-8333-333333333333';
const uuid = '44444444-4444-4444-8444-444444444444';

const engagement = (fields: Record<string, unknown> = {}) => ({
  uuid,
  person: { uuid: person, name: 'Anna' },
  org_unit: { uuid: unit, name: 'Skolen' },
  job_function: { uuid: other, name: 'Lærer' },
  validity: { from: '2020-01-01', to: null },
  ...fields,
});

describe('what the record keeps of an object', () => {
  it("hashes only the object's own content: a renamed unit or class changes no engagement", () => {
    const before = contentHash([engagement()]);
    expect(contentHash([engagement({ org_unit: { uuid: unit, name: 'Renamed' } })])).toBe(before);
    expect(contentHash([engagement({ job_function: { uuid: unit, name: 'Lærer' } })])).not.toBe(before);
    expect(contentHash([engagement({ validity: { from: '2021-01-01', to: null } })])).not.toBe(before);
  });

  it('hashes versions alike whatever order the backend lists them in', () => {
    const a = engagement({ validity: { from: '2020-01-01', to: '2020-12-31' } });
    const b = engagement({ validity: { from: '2021-01-01', to: null }, extension_1: 'x' });
    expect(contentHash([a, b])).toBe(contentHash([b, a]));
  });

  it('places a detail with its person, else its unit; a related unit with its first unit', () => {
    expect(ownerOf('engagement', engagement())).toEqual({ person, unit });
    expect(ownerOf('leave', engagement())).toEqual({ person });
    expect(ownerOf('address', { uuid, org_unit: { uuid: unit } })).toEqual({ unit });
    expect(ownerOf('related_unit', { uuid, org_unit: [{ uuid: other }, { uuid: unit }] })).toEqual({
      unit: other,
    });
    expect(ownerOf('org_unit', { uuid: unit })).toEqual({ unit });
    expect(ownerOf('employee', { uuid: person })).toEqual({ person });
  });

  it('the next boundary is the next start, or the day after the next end, after today', () => {
    const versions = [
      engagement({ validity: { from: '2020-01-01', to: '2026-06-30' } }),
      engagement({ validity: { from: '2026-07-01', to: '2026-12-31' } }),
    ];
    expect(nextBoundary(versions, '2026-06-01')).toBe('2026-07-01');
    expect(nextBoundary(versions, '2026-07-01')).toBe('2027-01-01');
    expect(nextBoundary(versions, '2027-01-01')).toBeNull();
    expect(sighting('engagement', versions, '2026-06-01')).toMatchObject({
      validFrom: '2020-01-01',
      validTo: '2026-12-31',
      nextBoundary: '2026-07-01',
    });
  });
});

describe('what a Service API write touched (OS2mo 2.4.0 service/details/writing.py, orgunit.py, employee.py)', () => {
  it('a create names its type and owner in the body, its UUID in the answer', () => {
    expect(
      touchedBy({
        path: '/service/details/create',
        body: [
          { type: 'address', person: { uuid: person }, value: 'a@b.dk' },
          { type: 'engagement', uuid, person: { uuid: person }, org_unit: { uuid: unit } },
        ],
        answer: [other, uuid],
      }),
    ).toEqual([
      { type: 'address', uuid: other, owner: { person } },
      { type: 'engagement', uuid, owner: { person, unit } },
    ]);
  });

  it("an edit or a termination names the object; a unit's or person's own", () => {
    expect(
      touchedBy({ path: '/service/details/edit', body: { type: 'org_unit', uuid: unit, data: {} } }),
    ).toEqual([{ type: 'org_unit', uuid: unit }]);
    expect(
      touchedBy({ path: '/service/details/terminate', body: { type: 'manager', uuid, validity: {} } }),
    ).toEqual([{ type: 'manager', uuid }]);
    expect(touchedBy({ path: '/service/e/create', body: { name: 'x' }, answer: person })).toEqual([
      { type: 'employee', uuid: person },
    ]);
    expect(touchedBy({ path: `/service/ou/${unit}/terminate`, body: {} })).toEqual([
      { type: 'org_unit', uuid: unit },
    ]);
  });

  it("a person's termination touches the person and every listing of theirs; a unit map each unit named", () => {
    const touched = touchedBy({ path: `/service/e/${person}/terminate`, body: { validity: {} } });
    expect(touched[0]).toEqual({ type: 'employee', uuid: person });
    expect(touched).toContainEqual({ type: 'engagement', owner: { person } });
    expect(
      touchedBy({ path: `/service/ou/${unit}/map`, body: { destination: [other], validity: {} } }),
    ).toEqual([
      { type: 'related_unit', owner: { unit } },
      { type: 'related_unit', owner: { unit: other } },
    ]);
  });

  it('a read or an unknown path touches nothing', () => {
    expect(touchedBy({ path: '/service/o/', body: undefined })).toEqual([]);
    expect(touchedBy({ path: '/service/details/create', body: [{ type: 'nonsense' }] })).toEqual([]);
  });
});
