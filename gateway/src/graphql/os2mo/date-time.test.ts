import { describe, expect, it } from 'vitest';
import { copenhagenMidnight, dateTimeScalar, nextDay, parseInstant, previousDay } from './date-time.js';

describe("OS2mo's DateTime", () => {
  it('writes a legacy date as Copenhagen midnight with the offset of that day (winter +01:00, summer +02:00)', () => {
    expect(copenhagenMidnight('2026-01-02')).toBe('2026-01-02T00:00:00+01:00');
    expect(copenhagenMidnight('2024-04-04')).toBe('2024-04-04T00:00:00+02:00');
    // The days the clocks change: midnight is still before the change at 02:00/03:00 local time.
    expect(copenhagenMidnight('2026-03-29')).toBe('2026-03-29T00:00:00+01:00');
    expect(copenhagenMidnight('2026-10-25')).toBe('2026-10-25T00:00:00+02:00');
    expect(dateTimeScalar.serialize('2026-07-01')).toBe('2026-07-01T00:00:00+02:00');
  });

  it('reads dates and date-times as the Copenhagen day they fall on', () => {
    expect(parseInstant('2026-01-02')).toEqual({ day: '2026-01-02', midnight: true });
    expect(parseInstant('2026-01-02T00:00:00+01:00')).toEqual({ day: '2026-01-02', midnight: true });
    // 23:30 UTC on 1 January is half past midnight on 2 January in Copenhagen.
    expect(parseInstant('2026-01-01T23:30:00Z')).toEqual({ day: '2026-01-02', midnight: false });
    expect(parseInstant('2026-01-01T23:00:00Z')).toEqual({ day: '2026-01-02', midnight: true });
    // Without an offset the time is Copenhagen's own clock, as in OS2mo.
    expect(parseInstant('2026-06-01T10:00:00')).toEqual({ day: '2026-06-01', midnight: false });
  });

  it('refuses what is not a date, with BAD_USER_INPUT', () => {
    for (const value of ['2026-02-30', 'tomorrow', '2026-1-2', 20260102]) {
      expect(() => dateTimeScalar.parseValue(value)).toThrow(/DateTime must be an ISO 8601 date/);
    }
  });

  it('steps days across month and year ends', () => {
    expect(nextDay('2025-12-31')).toBe('2026-01-01');
    expect(previousDay('2024-03-01')).toBe('2024-02-29');
  });
});
