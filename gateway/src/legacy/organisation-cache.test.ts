import { describe, expect, it } from 'vitest';
import { createOrganisationCache } from './legacy-loaders.js';

describe('createOrganisationCache', () => {
  it('asks once while the UUID is fresh, and again after the time is up', async () => {
    let now = 0;
    let lookUps = 0;
    const cache = createOrganisationCache(1_000, () => now);
    const lookUp = async () => `org-${++lookUps}`;
    expect(await Promise.all([cache(lookUp), cache(lookUp)])).toEqual(['org-1', 'org-1']);
    now = 999;
    expect(await cache(lookUp)).toBe('org-1');
    now = 1_000;
    expect(await cache(lookUp)).toBe('org-2');
    expect(lookUps).toBe(2);
  });

  it('does not keep a failed lookup', async () => {
    const cache = createOrganisationCache(60_000, () => 0);
    await expect(cache(() => Promise.reject(new Error('legacy down')))).rejects.toThrow('legacy down');
    expect(await cache(async () => 'org')).toBe('org');
  });
});
