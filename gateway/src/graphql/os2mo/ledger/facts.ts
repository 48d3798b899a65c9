import { holdsNone, notServed } from './entry.js';

/**
 * The facts that several types' coordinates share: each is declared once, so that every spelling naming it
 * (a field, its `_uuid`, its `_response`, a filter member, an input field) gets the same answer.
 */

/** OS2mo's bitemporal registrations, actors and audit log, in every version and every spelling. */
export const registrations = notServed(
  "OS2mo's bitemporal registrations, their actors and the audit log: the Service API keeps no registration history and no access log (the caller's own actor, `me.actor`, is served as an UnknownActor)",
  ['contract:OrgUnit', 'contract:Validity'],
);

/** OS2mo's `type` field of every object. */
export const typeField = notServed(
  "`type`: OS2mo's own deprecated implementation detail, of no use to a client",
  ['contract:OrgUnit'],
);

export const noRoleBindings = holdsNone(
  "the contract has no role binding (OS2mo's access rules on IT accounts came after 2.x, which never had them)",
  ['contract:ItUser', 'os2mo:backend/mora/mapping.py@2.4.0:33'],
  ['rolebindings', 'rolebinding', 'role_bindings'],
  'ITUser',
);

export const roleBindingWrites = notServed(
  "role bindings (OS2mo's access rules): the Service API cannot write them (it never had any; reads answer none)",
  ['contract:ItUserCreate'],
);

export const noItUserAddress = holdsNone(
  'a 2.x address (`Address` in the contract) names its person, unit or engagement, never an IT account',
  // OS2mo 2.4.0 writes an address's `tilknyttedefunktioner` with its engagement alone (`service/address.py`).
  ['contract:Address', 'contract:AddressCreate', 'os2mo:backend/mora/service/address.py@2.4.0:241'],
  ['ituser', 'it_user', 'it'],
  'Address',
);

export const itUserNoEngagement = holdsNone(
  "a 2.x IT account (`ItUser` in the contract) names its IT system, person and unit, never an engagement: OS2mo's engagement scoping came later",
  // OS2mo 2.4.0 writes an IT account with no `tilknyttedefunktioner` (`service/itsystem.py`, its create).
  ['contract:ItUser', 'contract:ItUserCreate', 'os2mo:backend/mora/service/itsystem.py@2.4.0:80'],
  ['engagement', 'engagements'],
  'ITUser',
);

/** The write side of facts 2.x holds none of: a write naming them has nowhere to go. */
export const itUserWriteFields = notServed(
  "the Service API's IT account holds its system, user name and owner (person or unit) only",
  ['contract:ItUserCreate'],
);

/** OS2mo's roles, which OS2mo replaced by role bindings (36.0.0); v21's printout still has them. */
export const roles = notServed(
  "roles (replaced by role bindings in OS2mo 36): not served in OS2mo's versions; v1 and v2 read `details/role`",
  ['contract:Role'],
);

/** A link over a validity window, which OS2mo printed up to v25. */
export const validityLinks = notServed(
  'a link over a validity window (`*_validity`), removed by OS2mo later: not served',
  ['contract:Validity'],
);

export const terminateFrom = notServed(
  "the Service API ends a person or a record at one date (its terminate takes `to` only); OS2mo's `from` would make a gap",
  ['contract:DetailTermination', 'contract:EmployeeTermination'],
);

export const noDelete = notServed('the Service API ends records (terminate) but never deletes them', [
  'contract:DetailTermination',
]);

export const uploads = notServed(
  "OS2mo's file uploads: the Service API's exports router only lists and reads files (GET /service/exports/, OS2mo 2.4.0 service/exports.py:14 and :45); it cannot store one",
  ['contract:/service/exports/', 'os2mo:backend/mora/service/exports.py@2.4.0:14'],
);

export const noPublication = notServed('the Service API keeps no publication state for classes and facets', [
  'contract:Class',
  'contract:Facet',
]);

export const classNoValidity = notServed(
  "the Service API gives classes and facets no validity (OS2mo 2.4.0's `get_one_class` and `get_one_facet`, `service/facet.py`, leave LoRa's publication state out), and an IT system's only inside an IT account (`ItSystemRef`), never in the IT-system listing (`GET /service/o/{org}/it/`)",
  ['os2mo:backend/mora/service/facet.py@2.4.0:404', 'contract:ItSystemRef', 'contract:ItSystem'],
);
