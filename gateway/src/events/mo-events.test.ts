import { describe, expect, it } from 'vitest';
import type { ObjectType } from '../legacy/backend-hooks.js';
import { os2moObjectNames } from '../legacy/os2mo-type-names.js';
import type { WriteIntent } from '../rbac/write-intent.js';
import { moRoutingKeys, recordedRoutingKey, touchedByMutation, touchedByServiceWrite } from './mo-events.js';

const unit = '11111111-1111-4111-8111-111111111111';
const created = '22222222-2222-4222-8222-222222222222';
const record = '33333333-3333-4333-8333-333333333333';

describe('touchedByServiceWrite', () => {
  it("names a created object by the backend's answer, a changed one by the request", () => {
    const create: WriteIntent = { kind: 'create_unit', parent: unit, date: '2024-01-01' };
    expect(touchedByServiceWrite([create], created)).toEqual([{ routingKey: 'org_unit', uuid: created }]);
    const move: WriteIntent = { kind: 'move_unit', unit, parent: null, date: '2024-01-01' };
    expect(touchedByServiceWrite([move], unit)).toEqual([{ routingKey: 'org_unit', uuid: unit }]);
  });

  it('names a class written through POST /service/f/{facet}/ by the UUID the backend answered', () => {
    const write: WriteIntent = { kind: 'class', facet: 'job_function' };
    expect(touchedByServiceWrite([write], created)).toEqual([{ routingKey: 'class', uuid: created }]);
    expect(touchedByServiceWrite([write], { error: true })).toEqual([]);
  });

  it("uses OS2mo's routing keys for the Service API's detail types, and none for 2.x roles", () => {
    const edit = (type: 'it' | 'role' | 'engagement'): WriteIntent => ({
      kind: 'change_detail',
      action: 'edit',
      type,
      uuid: record,
      date: '2024-01-01',
      hints: { units: [], persons: [] },
    });
    expect(touchedByServiceWrite([edit('it')], record)).toEqual([{ routingKey: 'ituser', uuid: record }]);
    expect(touchedByServiceWrite([edit('role')], record)).toEqual([]);
    // A list body: one answered UUID per item, in order.
    const creates: WriteIntent[] = [
      { kind: 'create_detail', type: 'engagement', unit, date: '2024-01-01' },
      { kind: 'create_detail', type: 'address', unit, date: '2024-01-01' },
    ];
    expect(touchedByServiceWrite(creates, [created, record])).toEqual([
      { routingKey: 'engagement', uuid: created },
      { routingKey: 'address', uuid: record },
    ]);
  });

  it('names a person "person", and nothing for a write RBAC cannot read or an answer that is no UUID', () => {
    expect(touchedByServiceWrite([{ kind: 'employee', action: 'create', uuid: null }], created)).toEqual([
      { routingKey: 'person', uuid: created },
    ]);
    expect(touchedByServiceWrite([{ kind: 'unreadable', problem: 'x' }], created)).toEqual([]);
    expect(
      touchedByServiceWrite([{ kind: 'create_unit', parent: unit, date: '2024-01-01' }], { error: true }),
    ).toEqual([]);
  });
});

describe('touchedByMutation', () => {
  it('takes the routing key from the mutation, singular or plural, and the UUIDs from its answer', () => {
    expect(touchedByMutation('org_unit_update', { uuid: unit })).toEqual([
      { routingKey: 'org_unit', uuid: unit },
    ]);
    expect(touchedByMutation('employee_terminate', { uuid: unit })).toEqual([
      { routingKey: 'person', uuid: unit },
    ]);
    expect(touchedByMutation('addresses_create', [{ uuid: unit }, { uuid: record }])).toEqual([
      { routingKey: 'address', uuid: unit },
      { routingKey: 'address', uuid: record },
    ]);
    expect(touchedByMutation('employees_update', [{ uuid: unit }])).toEqual([
      { routingKey: 'person', uuid: unit },
    ]);
  });

  it("names a class written by class_create or class_update under OS2mo's class routing key", () => {
    expect(touchedByMutation('class_create', { uuid: created })).toEqual([
      { routingKey: 'class', uuid: created },
    ]);
    expect(touchedByMutation('class_update', { uuid: record })).toEqual([
      { routingKey: 'class', uuid: record },
    ]);
  });

  it('names nothing for a mutation of no routing key, or an answer without a UUID', () => {
    expect(touchedByMutation('event_send', true)).toEqual([]);
    expect(touchedByMutation('org_unit_create', null)).toEqual([]);
    // A name no type has, even one every object answers (`constructor`), is no routing key.
    expect(touchedByMutation('constructor_create', { uuid: unit })).toEqual([]);
  });
});

describe('recordedRoutingKey', () => {
  it("gives every Service API type OS2mo names one of OS2mo's routing keys, and none to the others", () => {
    for (const [type, name] of Object.entries(os2moObjectNames)) {
      const routingKey = recordedRoutingKey(type as ObjectType);
      if (name === null) expect(routingKey, type).toBeUndefined();
      else expect(moRoutingKeys, type).toContain(routingKey);
    }
    expect(recordedRoutingKey('it')).toBe('ituser');
    expect(recordedRoutingKey('employee')).toBe('person');
  });
});
