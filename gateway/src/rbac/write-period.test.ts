import { describe, expect, it } from 'vitest';
import { describePeriod, periodOf } from './write-period.js';

// Issue 20, item 4: with no end a write's period ran through today (or its own date, if later) only.
describe('the period a write affects', () => {
  it.each([
    [
      'no end: for good',
      { date: '2025-01-01' },
      { from: '2025-01-01', to: '9999-12-31' },
      'from 2025-01-01 on',
    ],
    [
      'no end, in the future',
      { date: '2027-01-01' },
      { from: '2027-01-01', to: '9999-12-31' },
      'from 2027-01-01 on',
    ],
    [
      'an end',
      { date: '2025-01-01', until: '2025-03-31' },
      { from: '2025-01-01', to: '2025-03-31' },
      'from 2025-01-01 to 2025-03-31',
    ],
    [
      'an end after today',
      { date: '2025-01-01', until: '2027-12-31' },
      { from: '2025-01-01', to: '2027-12-31' },
      'from 2025-01-01 to 2027-12-31',
    ],
    [
      'an end before its date: one day',
      { date: '2025-01-01', until: '2024-12-31' },
      { from: '2025-01-01', to: '2025-01-01' },
      'on 2025-01-01',
    ],
  ])('%s', (_name, intent: { date: string; until?: string }, period, said) => {
    expect(periodOf(intent)).toEqual(period);
    expect(describePeriod(period)).toBe(said);
  });
});
