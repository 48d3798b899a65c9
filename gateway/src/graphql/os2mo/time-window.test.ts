import { describe, expect, it } from 'vitest';
import { parseInstant } from './date-time.js';
import { dayWindow, overlaps, windowReads } from './time-window.js';

const today = '2026-06-01';
const names = { start: 'filter.from_date', end: 'filter.to_date' };
const at = (value: string) => parseInstant(value)!;

// OS2mo's defaults: mora/graphapi/resolvers.py, `get_date_interval` (absent start: now; absent end: just after
// the start; null: open; an open start with an absent end is refused).
describe('dayWindow', () => {
  it('is today when neither end is given', () => {
    expect(dayWindow(undefined, undefined, today, names)).toEqual({ from: today, to: today });
  });

  it('is one day when only the start is given, and open where null is given', () => {
    expect(dayWindow(at('2020-05-05'), undefined, today, names)).toEqual({
      from: '2020-05-05',
      to: '2020-05-05',
    });
    expect(dayWindow(null, null, today, names)).toEqual({ from: null, to: null });
    expect(dayWindow(at('2020-05-05'), null, today, names)).toEqual({ from: '2020-05-05', to: null });
  });

  it('ends the day before an exclusive end at midnight, and on the day of any later end', () => {
    expect(dayWindow(at('2020-01-01'), at('2021-01-01'), today, names)).toEqual({
      from: '2020-01-01',
      to: '2020-12-31',
    });
    expect(dayWindow(at('2020-01-01'), at('2021-01-01T08:00:00+01:00'), today, names)).toEqual({
      from: '2020-01-01',
      to: '2021-01-01',
    });
  });

  it('refuses an open start without an end, and an end before the start', () => {
    expect(() => dayWindow(null, undefined, today, names)).toThrow(
      'filter.to_date must be given when filter.from_date is null (an open start).',
    );
    expect(() => dayWindow(at('2021-01-01'), at('2020-01-01'), today, names)).toThrow(
      'filter.to_date must be after filter.from_date.',
    );
  });
});

describe('windowReads', () => {
  it('costs one read for a day, two from a start on, three when the window opens in the past', () => {
    expect(windowReads({ from: '2020-01-01', to: '2020-01-01' }, today)).toEqual({
      at: '2020-01-01',
      scopes: ['present'],
    });
    expect(windowReads({ from: '2020-01-01', to: null }, today)).toEqual({
      at: '2020-01-01',
      scopes: ['present', 'future'],
    });
    expect(windowReads({ from: null, to: '2020-01-01' }, today)).toEqual({
      at: today,
      scopes: ['past', 'present', 'future'],
    });
  });
});

describe('overlaps', () => {
  it('keeps a version that touches the window at either end, inclusive legacy ends', () => {
    const window = { from: '2020-01-01', to: '2020-12-31' };
    expect(overlaps({ from: '2019-01-01', to: '2020-01-01' }, window)).toBe(true);
    expect(overlaps({ from: '2020-12-31', to: null }, window)).toBe(true);
    expect(overlaps({ from: '2019-01-01', to: '2019-12-31' }, window)).toBe(false);
    expect(overlaps({ from: '2021-01-01', to: null }, window)).toBe(false);
    expect(overlaps({ from: null, to: null }, { from: null, to: null })).toBe(true);
  });
});
