import { describe, expect, it } from 'vitest';
import { flagCoverage } from './flag-equivalents.js';

const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';

describe('flag coverage', () => {
  it('lists every flag an endpoint takes with its GraphQL equivalent, or none', () => {
    const flags = flagCoverage({
      method: 'GET',
      path: '/service/ou/{uuid}/details/manager',
      status: 'proven',
      samples: [],
    });
    expect(flags.map((flag) => flag.flag)).toEqual([
      'at',
      'validity=present',
      'validity=past',
      'validity=future',
      'validity=interval',
      'only_primary_uuid',
      'changed_since',
      'inherit_manager',
    ]);
    expect(flags.find((flag) => flag.flag === 'inherit_manager')?.graphql).toBe('`managers(inherit: true)`');
    expect(flags.find((flag) => flag.flag === 'changed_since')?.graphql).toBeNull();
    expect(flags.find((flag) => flag.flag === 'validity=interval')?.graphql).toBeNull();
  });

  it('calls a flag proven only when a sampled read of a proven endpoint used it', () => {
    const samples = [`/service/ou/${unit}/details/engagement?validity=past&at=2020-01-01`];
    const proven = flagCoverage({
      method: 'GET',
      path: '/service/ou/{uuid}/details/engagement',
      status: 'proven',
      samples,
    });
    expect(proven.filter((flag) => flag.proven).map((flag) => flag.flag)).toEqual(['at', 'validity=past']);
    const different = flagCoverage({
      method: 'GET',
      path: '/service/ou/{uuid}/details/engagement',
      status: 'different',
      samples,
    });
    expect(different.some((flag) => flag.proven)).toBe(false);
  });
});
