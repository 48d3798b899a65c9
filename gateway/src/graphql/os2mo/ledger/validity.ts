import { type TypeLedger } from './entry.js';

/** The ledger of OS2mo's `Validity`: its fields, and the coordinates of its filters and inputs. */
export const validity: TypeLedger = {
  type: 'Validity',
  graphType: 'Validity',
  description: 'When an object holds: from `from` (inclusive) until `to` (exclusive; null: no end).',
  contract: ['Validity'],
  fields: {
    from: { type: 'DateTime!' },
    to: { type: 'DateTime' },
  },
};
