import type { Source } from '../context.js';

/**
 * OS2mo's `Address.resolve`: the address's value read by its type's scope. The Service API lists each
 * address with its type (and that type's scope), so the answer costs no read of its own.
 */
export const resolvedAddressTypeDefs = `
"""An address's value, read by the scope of its type."""
interface ResolvedAddress {
  value: String!
}

"""An address whose value is shown as stored."""
type DefaultAddress implements ResolvedAddress {
  value: String!
}

"""An address of two values (scope \`MULTIFIELD_TEXT\`)."""
type MultifieldAddress implements ResolvedAddress {
  value: String!
  value2: String!
  name: String!
}

"""An address in the national address register (scope \`DAR\`): the value is its UUID there."""
type DARAddress implements ResolvedAddress {
  value: String!
  name: String!
}
`;

type ResolvedAddress =
  | { __typename: 'DefaultAddress'; value: string }
  | { __typename: 'MultifieldAddress'; value: string; value2: string; name: string }
  | { __typename: 'DARAddress'; value: string; name: string };

/** A multifield address's name: both values, the second left out when blank (OS2mo's `multifield_text.name`). */
function multifieldName(value: string, value2: string): string {
  return value2.trim() ? `${value} :: ${value2}` : value;
}

/** `Address.resolve`, by the scope of the address's type as OS2mo decides (`mora/graphapi/collections/address.py`). */
export function resolveAddress(source: Source): ResolvedAddress {
  const scope = (source.address_type as { scope?: string | null } | null | undefined)?.scope;
  const value = String(source.value ?? '');
  if (scope === 'MULTIFIELD_TEXT') {
    const value2 = String(source.value2 ?? '');
    return { __typename: 'MultifieldAddress', value, value2, name: multifieldName(value, value2) };
  }
  // The Service API names a DAR address as the register does; its structured fields it does not pass on.
  if (scope === 'DAR') return { __typename: 'DARAddress', value, name: String(source.name ?? value) };
  return { __typename: 'DefaultAddress', value };
}

export const resolvedAddressResolvers = {
  ResolvedAddress: { __resolveType: (resolved: ResolvedAddress) => resolved.__typename },
};
