import { empty, holdsNone, omitted, pageArgs, responses, type TypeLedger } from './entry.js';
import * as facts from './facts.js';

const itSystemNoRoles = holdsNone(
  "a 2.x IT system (`ItSystem` in the contract) has no roles: OS2mo's IT roles came later",
  ['contract:ItSystem', 'contract:ItSystemRef'],
  ['roles', 'role'],
);

/** The ledger of OS2mo's `ITSystem`: its fields, and the coordinates of its filters and inputs. */
export const itSystem: TypeLedger = {
  type: 'ITSystem',
  graphType: 'ITSystem',
  description: 'An IT system in which people and units have accounts.',
  contract: ['ItSystem', 'ItSystemRef'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    name: { type: 'String!' },
    system_type: { type: 'String' },
    roles: empty(itSystemNoRoles, '[ClassResponse!]!', {
      args: `filter: ItSystemboundclassfilter, ${pageArgs}`,
      deprecated: 'Use `roles_response`.',
      since: 26,
    }),
    roles_response: empty(itSystemNoRoles, 'ClassResponsePaged!', {
      args: `filter: ItSystemboundclassfilter, ${pageArgs}`,
      since: responses,
    }),
    validity: omitted(facts.classNoValidity),
    type: omitted(facts.typeField),
  },
};
