import type { LegacyFetch } from './legacy-edits.js';

/** What a legacy edit of a unit's detail record changed: the record, the field and its values. */
export interface DetailChange {
  recordUuid: string;
  before: string;
  after: string;
}

type Address = { uuid: string; value: string; address_type: { uuid: string } };

/** The first e-mail address or phone number of a listing: values the test can change and keep valid. */
export const editableAddress = (addresses: Address[]): Address | undefined =>
  addresses.find((address) => address.value.includes('@') || /^\+?[0-9 ]+$/.test(address.value));

/**
 * Gives the first e-mail address or phone number of a unit another value from today, through the legacy service's own write API
 * (`POST /service/details/edit`), as any legacy client would: only that one detail type changes.
 */
export async function changeAddressValue(legacyFetch: LegacyFetch, unitUuid: string): Promise<DetailChange> {
  const json = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const response = await legacyFetch(path, init);
    const text = await response.text();
    if (!response.ok)
      throw new Error(`${init?.method ?? 'GET'} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
  const address = editableAddress(await json<Address[]>(`/service/ou/${unitUuid}/details/address`));
  if (!address) throw new Error(`unit ${unitUuid} has no e-mail address or phone number to change`);
  // Same kind of value, as the legacy service checks it: an e-mail address stays one, a number digits.
  const after = address.value.includes('@')
    ? `changed.${address.value}`
    : address.value.replace(/[0-9]$/, (digit) => String((Number(digit) + 1) % 10));
  await json(`/service/details/edit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'address',
      uuid: address.uuid,
      data: {
        value: after,
        address_type: { uuid: address.address_type.uuid },
        validity: { from: new Date().toISOString().slice(0, 10) },
      },
    }),
  });
  return { recordUuid: address.uuid, before: address.value, after };
}
