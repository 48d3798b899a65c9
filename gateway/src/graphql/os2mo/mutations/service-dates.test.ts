import { describe, expect, it } from 'vitest';
import { parseInstant } from '../date-time.js';
import { endDay, lastDayBefore, startDay } from './service-dates.js';

describe('startDay', () => {
  it('takes a date as it is, and a date-time as the day it is in Copenhagen', () => {
    expect(startDay('2021-01-01')).toBe('2021-01-01');
    // OS2mo's migration guide (Version 29) writes its dates this way.
    expect(startDay('2021-01-01T00:00:00+01:00')).toBe('2021-01-01');
    expect(startDay('2020-12-31T23:30:00Z')).toBe('2021-01-01');
    expect(startDay('2021-06-30T22:00:00Z')).toBe('2021-07-01');
    expect(startDay('2021-01-01T10:00:00')).toBe('2021-01-01');
    expect(startDay(new Date('2021-06-30T22:00:00Z'))).toBe('2021-07-01');
  });

  it('refuses what is not a date, with BAD_USER_INPUT', () => {
    for (const bad of ['tomorrow', '2021-13-01', '2021-02-30T00:00:00', 20210101, null]) {
      expect(() => startDay(bad)).toThrow(
        expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT' } }),
      );
    }
  });
});

describe('lastDayBefore: an exclusive end (v29+) as the Service API inclusive last day', () => {
  it('an end at midnight leaves that whole day out', () => {
    // OS2mo's migration guide, "Version 29": valid until 2023-03-03 00:00 means the last day is 2023-03-02.
    expect(lastDayBefore('2023-03-03T00:00:00+01:00')).toBe('2023-03-02');
    expect(lastDayBefore('2023-03-03')).toBe('2023-03-02');
    expect(lastDayBefore('2023-03-03T00:00:00')).toBe('2023-03-02');
    expect(lastDayBefore('2024-04-04T00:00:00+02:00')).toBe('2024-04-03');
    expect(lastDayBefore('2024-03-01')).toBe('2024-02-29');
  });

  it('an end later in the day keeps the day it falls on', () => {
    expect(lastDayBefore('2023-03-03T12:00:00+01:00')).toBe('2023-03-03');
    expect(lastDayBefore('2023-03-03T12:00:00')).toBe('2023-03-03');
  });
});

describe('endDay', () => {
  it('reads an end as exclusive (v29+) or inclusive (older versions)', () => {
    expect(endDay('2023-03-03T00:00:00+01:00', 'exclusive')).toBe('2023-03-02');
    expect(endDay('2023-03-03T00:00:00+01:00', 'inclusive')).toBe('2023-03-03');
  });
});

describe("the served DateTime scalar's parsed value", () => {
  it('is read as the Copenhagen day it already names (`parseInstant` in ../date-time.ts)', () => {
    const midnight = parseInstant('2023-03-03T00:00:00+01:00')!;
    expect(startDay(midnight)).toBe('2023-03-03');
    expect(lastDayBefore(midnight)).toBe('2023-03-02');
    expect(lastDayBefore(parseInstant('2023-03-03T12:00:00+01:00'))).toBe('2023-03-03');
    expect(endDay(parseInstant('2023-03-03'), 'inclusive')).toBe('2023-03-03');
    expect(() => startDay({ day: '2021-02-30', midnight: true })).toThrow(
      expect.objectContaining({ extensions: { code: 'BAD_USER_INPUT' } }),
    );
  });
});
