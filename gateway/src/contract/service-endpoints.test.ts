import { describe, expect, it } from 'vitest';
import { contractOperations } from './contract-operations.generated.js';
import { serviceAttributor } from './service-endpoints.js';

const attribute = serviceAttributor(contractOperations);
const unit = 'f41291dc-2a78-5663-957a-efb8d5ed9a0e';

describe('service endpoints', () => {
  it('attributes a call to its template and the contract flags it used', () => {
    expect(
      attribute(
        'GET',
        `/service/ou/${unit}/details/manager`,
        new URLSearchParams('inherit_manager=1&validity=past&at=2024-01-01'),
      ),
    ).toEqual({
      endpoint: 'GET /service/ou/{uuid}/details/manager',
      flags: 'at,inherit_manager,validity=past',
    });
    expect(attribute('GET', `/service/ou/${unit}/`, new URLSearchParams())).toEqual({
      endpoint: 'GET /service/ou/{uuid}/',
      flags: 'none',
    });
  });

  it('keeps its labels bounded: unknown parameters, free values and unknown paths collapse', () => {
    // A parameter the operation does not take is not a flag; calculate_primary belongs to engagements only.
    expect(
      attribute('GET', `/service/ou/${unit}/details/manager`, new URLSearchParams('calculate_primary=1&x=y')),
    ).toEqual({ endpoint: 'GET /service/ou/{uuid}/details/manager', flags: 'none' });
    expect(
      attribute(
        'GET',
        `/service/e/${unit}/details/engagement`,
        new URLSearchParams('validity=2020-01-01/2021-01-01'),
      ),
    ).toEqual({ endpoint: 'GET /service/e/{uuid}/details/engagement', flags: 'validity=interval' });
    expect(attribute('GET', '/service/nothing/here', new URLSearchParams())).toEqual({
      endpoint: 'unmatched',
      flags: 'none',
    });
    expect(attribute('DELETE', `/service/ou/${unit}/`, new URLSearchParams())).toEqual({
      endpoint: 'unmatched',
      flags: 'none',
    });
  });

  it('prefers a fixed segment over a parameter, and answers HEAD as GET', () => {
    expect(attribute('GET', '/service/ou/autocomplete/', new URLSearchParams('query=a')).endpoint).toBe(
      'GET /service/ou/autocomplete/',
    );
    expect(attribute('HEAD', '/service/o/', new URLSearchParams()).endpoint).toBe('GET /service/o/');
    expect(attribute('POST', '/service/details/edit', new URLSearchParams()).endpoint).toBe(
      'POST /service/details/edit',
    );
  });

  it('counts a spelling the backend routes under its template, not as unmatched', () => {
    const none = new URLSearchParams();
    expect(attribute('GET', `/service/ou/${unit}/details/manager/`, none).endpoint).toBe(
      'GET /service/ou/{uuid}/details/manager',
    );
    expect(attribute('HEAD', `/service/e/${unit.toUpperCase()}`, none).endpoint).toBe(
      'GET /service/e/{uuid}/',
    );
    expect(attribute('GET', '/service/o', none).endpoint).toBe('GET /service/o/');
    expect(attribute('POST', '/service/details/create/', none).endpoint).toBe('POST /service/details/create');
  });
});

describe('service endpoints the contract does not have', () => {
  it('counts a forwarded unknown path under its own label, one per shape, and at most as many as allowed', () => {
    const counting = serviceAttributor(contractOperations, { unknownPaths: 2 });
    expect(counting('GET', `/service/ou/${unit}/whatever/`, new URLSearchParams('x=1'))).toEqual({
      endpoint: 'GET /service/ou/{uuid}/whatever',
      flags: 'none',
    });
    expect(
      counting('HEAD', `/service/ou/${unit.toUpperCase()}/whatever`, new URLSearchParams()).endpoint,
    ).toBe('GET /service/ou/{uuid}/whatever');
    expect(counting('POST', '/service/new/42/%E2%9C%93', new URLSearchParams()).endpoint).toBe(
      'POST /service/new/{n}/{x}',
    );
    // A third shape: the labels are full, so it is unmatched; a known one keeps its label.
    expect(counting('GET', '/service/third', new URLSearchParams()).endpoint).toBe('unmatched');
    expect(counting('GET', `/service/ou/${unit}/whatever`, new URLSearchParams()).endpoint).toBe(
      'GET /service/ou/{uuid}/whatever',
    );
    // The contract's own endpoints are attributed as before.
    expect(counting('GET', `/service/ou/${unit}/`, new URLSearchParams()).endpoint).toBe(
      'GET /service/ou/{uuid}/',
    );
  });
});
