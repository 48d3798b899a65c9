import { describe, expect, it } from 'vitest';
import { resolveAddress } from './address-resolve.js';

const address = (scope: string | null, fields: Record<string, unknown>) => ({
  uuid: 'a',
  __at: '2024-01-01',
  address_type: { uuid: 't', scope },
  ...fields,
});

// OS2mo's resolve types by scope: tests/graphapi/test_addresses.py@HEAD, `test_address_resolver`.
describe("OS2mo's Address.resolve", () => {
  it('shows an e-mail or phone address as stored, a DefaultAddress', () => {
    expect(resolveAddress(address('EMAIL', { value: 'goofy@example.com' }))).toEqual({
      __typename: 'DefaultAddress',
      value: 'goofy@example.com',
    });
    expect(resolveAddress(address(null, { value: '+4587150000' })).__typename).toBe('DefaultAddress');
  });

  it('gives a multifield address both values and their name, the second left out when blank', () => {
    expect(resolveAddress(address('MULTIFIELD_TEXT', { value: 'Building 11', value2: 'Room 3' }))).toEqual({
      __typename: 'MultifieldAddress',
      value: 'Building 11',
      value2: 'Room 3',
      name: 'Building 11 :: Room 3',
    });
    expect(resolveAddress(address('MULTIFIELD_TEXT', { value: 'Building 11', value2: '  ' }))).toMatchObject({
      name: 'Building 11',
    });
  });

  it("gives a DAR address its register UUID and the Service API's name for it", () => {
    const uuid = 'b1f1817d-5f02-4331-b8b3-97330a5d3197';
    expect(resolveAddress(address('DAR', { value: uuid, name: 'Nordre Ringgade 1, 8000 Aarhus C' }))).toEqual(
      { __typename: 'DARAddress', value: uuid, name: 'Nordre Ringgade 1, 8000 Aarhus C' },
    );
  });
});
