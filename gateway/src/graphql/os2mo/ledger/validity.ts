import { type TypeLedger } from './entry.js';

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
