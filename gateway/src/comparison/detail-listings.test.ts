import { describe, expect, it } from 'vitest';
import { detailNormalForm, detailSelection } from './detail-listings.js';
import { findDifferences } from './differences.js';

const validity = { from: '2020-01-01', to: null };
const legacyAddress = {
  uuid: 'a1',
  user_key: 'mail',
  validity,
  address_type: { uuid: 't', name: 'E-mail', user_key: 'EmailUnit', scope: 'EMAIL', facet: {} },
  visibility: { uuid: 'v', name: 'Public', user_key: 'public' },
  name: 'info@example.org',
  value: 'info@example.org',
  href: 'mailto:info@example.org',
  person: null,
  org_unit: { uuid: 'u', name: 'Finance', user_key: 'FIN', validity },
  engagement: { uuid: 'e', user_key: 'E1', person: {} },
};
// The same record as GraphQL answers it: `employee` for `person`, `engagement_uuid` for the embedded engagement.
const graphqlAddress = {
  uuid: 'a1',
  user_key: 'mail',
  validity,
  address_type: { user_key: 'EmailUnit' },
  visibility: { user_key: 'public' },
  name: 'info@example.org',
  value: 'info@example.org',
  href: 'mailto:info@example.org',
  employee: null,
  org_unit: { uuid: 'u', name: 'Finance' },
  engagement_uuid: 'e',
};

describe('the comparable form of a detail listing', () => {
  it('brings both names of the same data together, keyed by uuid', () => {
    const legacy = detailNormalForm('address', 'legacy', [legacyAddress]);
    expect(legacy).toEqual({
      a1: {
        user_key: 'mail',
        validity: { from: '2020-01-01', to: null },
        address_type: { user_key: 'EmailUnit' },
        visibility: { user_key: 'public' },
        name: 'info@example.org',
        value: 'info@example.org',
        href: 'mailto:info@example.org',
        employee: null,
        org_unit: { uuid: 'u', name: 'Finance' },
        engagement_uuid: 'e',
      },
    });
    expect(findDifferences(legacy, detailNormalForm('address', 'graphql', [graphqlAddress]))).toEqual([]);
  });

  it('names a changed field and a record only one side has', () => {
    const graphql = detailNormalForm('address', 'graphql', [
      { ...graphqlAddress, value: 'other@example.org' },
      { ...graphqlAddress, uuid: 'a2' },
    ]);
    const differences = findDifferences(detailNormalForm('address', 'legacy', [legacyAddress]), graphql);
    expect(differences.map((difference) => difference.path)).toEqual(['a1.value', 'a2']);
  });

  it('selects the GraphQL field of the owner: a person’s managers are manager_roles', () => {
    expect(detailSelection('employees', 'manager')).toMatch(/^manager_roles \{ uuid user_key validity/);
    expect(detailSelection('org_units', 'kle')).toContain('kle_aspects { user_key }');
  });
});
