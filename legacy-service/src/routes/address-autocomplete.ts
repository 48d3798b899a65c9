import { Hono } from 'hono';
import { invalid, LegacyError } from '../errors.js';
import { requireUuid } from '../input.js';
import type { DarAddress } from '../model.js';
import type { OrgData } from '../org-data.js';
import { darAddressText } from '../views.js';
import { readFlag } from './read-params.js';

export interface AddressAutocompleteOptions {
  data: OrgData;
}

/** 2.4.0 asks DAWA for five access addresses, then ten addresses (`service/address.py:127-151`). */
const accessAddressLimit = 5;
const addressLimit = 10;

const noLocalMunicipality = () =>
  new LegacyError(400, 'E_NO_LOCAL_MUNICIPALITY', 'No local municipality found.');

/** Every word of the query begins a word of the address text, in any order and case, as DAWA matches. */
function matches(query: string, text: string): boolean {
  const words = (value: string) =>
    value
      .toLowerCase()
      .split(/[\s,.]+/)
      .filter(Boolean);
  const textWords = words(text);
  const queryWords = words(query);
  return (
    queryWords.length > 0 &&
    queryWords.every((word) => textWords.some((candidate) => candidate.startsWith(word)))
  );
}

const byText = (a: { text: string }, b: { text: string }) =>
  a.text.localeCompare(b.text, 'da', { numeric: true });

/**
 * `GET /o/{org}/address_autocomplete/?q=…[&global=1]`, as OS2mo 2.4.0 answers it (`service/address.py:54-161`)
 * from the stand-in's copy of the address register instead of DAWA: without `global`, only the addresses of the
 * organisation's municipality (400 `E_NO_LOCAL_MUNICIPALITY` when it has none); first the access addresses (an
 * address without floor or door is its own access address here), then the addresses, each text once, as
 * `[{"location": {"name", "uuid"}}]`.
 */
export function addressAutocompleteRoutes({ data }: AddressAutocompleteOptions): Hono {
  const app = new Hono({ strict: false });

  app.get('/o/:org/address_autocomplete', (c) => {
    const orgid = requireUuid('org', c.req.param('org'));
    const query = c.req.query('q');
    if (query === undefined) throw invalid.input([{ key: 'q', message: 'field required' }]);
    let code: number | undefined;
    if (!readFlag(c, 'global')) {
      const organisation = data.organisations().find((candidate) => candidate.uuid === orgid);
      code = organisation?.municipality_code;
      if (code === undefined) throw noLocalMunicipality();
    }
    const found = data
      .darAddresses()
      .filter((address: DarAddress) => code === undefined || address.kommunekode === code)
      .map((address) => ({ address, text: darAddressText(address) }))
      .filter(({ text }) => matches(query, text))
      .sort(byText);
    const answer = new Map<string, string>();
    for (const { address, text } of found
      .filter(({ address }) => address.etage === null && address.dør === null)
      .slice(0, accessAddressLimit)) {
      answer.set(text, address.uuid);
    }
    for (const { address, text } of found.slice(0, addressLimit)) {
      if (!answer.has(text)) answer.set(text, address.uuid);
    }
    return c.json([...answer].map(([name, uuid]) => ({ location: { name, uuid } })));
  });

  return app;
}
