import { notServed, omitted, type TypeLedger } from './entry.js';
import * as facts from './facts.js';

const noMunicipalityCode = notServed(
  "the Service API's organisation reads (`GET /service/o/`, `/service/o/{org}/`) give no municipality code: OS2mo 2.4.0 reads the organisation's `myndighed` only inside its address search (`service/address.py`), which the contract does not serve",
  ['contract:Organisation', 'os2mo:backend/mora/service/address.py@2.4.0:104'],
);

/** The ledger of OS2mo's `Organisation`: its fields, and the coordinates of its filters and inputs. */
export const organisation: TypeLedger = {
  type: 'Organisation',
  graphType: 'Organisation',
  description: 'The root organisation.',
  contract: ['Organisation'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    name: { type: 'String!' },
    municipality_code: omitted(noMunicipalityCode),
    type: omitted(facts.typeField),
  },
};
