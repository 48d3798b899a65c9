import {
  added,
  at,
  bound,
  byUuids,
  dropsRootOrganisation,
  empty,
  holdsNone,
  notServed,
  omitted,
  pageArgs,
  responses,
  useUuidField,
  uuidsBoundArgs,
  type TypeLedger,
} from './entry.js';
import * as facts from './facts.js';

const classNoItSystem = holdsNone(
  'a 2.x class (`Class`, `ClassWithFacet`, `ClassWrite` in the contract) names no IT system',
  // OS2mo 2.4.0 writes a class with no `mapninger` relation (`common.py`, `create_klasse_payload`).
  [
    'contract:Class',
    'contract:ClassWithFacet',
    'contract:ClassWrite',
    'os2mo:backend/mora/common.py@2.4.0:617',
  ],
  ['it_system', 'itsystem'],
);
const classNoDescription = notServed(
  "the Service API's class reads (`GET /service/c/{uuid}/`, a facet's class listing) give no description: OS2mo 2.4.0's `get_one_class` (`service/facet.py`) leaves LoRa's `beskrivelse` out",
  ['os2mo:backend/mora/service/facet.py@2.4.0:404', 'contract:Class'],
);

const classWriteFields = notServed(
  "the Service API's class write (the contract's ClassWrite: OS2mo 2.4.0 MOClass) holds a class's name, user key, scope and organisation only",
  ['contract:ClassWrite'],
);

/** The ledger of OS2mo's `Class`: its fields, and the coordinates of its filters and inputs. */
export const classType: TypeLedger = {
  type: 'Class',
  graphType: 'Class',
  description: 'An entry of a facet: a manager type, a job function, an address type, …',
  contract: ['Class', 'ClassWithFacet', 'ClassChild', 'ClassWrite'],
  fields: {
    uuid: { type: 'UUID!' },
    user_key: { type: 'String!' },
    name: { type: 'String!' },
    scope: { type: 'String' },
    example: { type: 'String', deprecated: 'OS2mo no longer uses it.' },
    owner: { type: 'UUID' },
    facet: { type: 'Facet!', deprecated: 'Use `facet_response`.', ...byUuids('Facet') },
    facet_uuid: { type: 'UUID!', from: 'facet', deprecated: useUuidField('facet') },
    facet_response: { since: responses, type: 'FacetResponse!', from: 'facet', response: 'one' },
    children_response: {
      since: responses,
      type: 'ClassResponsePaged!',
      from: 'children',
      response: 'paged',
      ...bound('ParentBoundClassFilter', null, pageArgs),
    },
    children: {
      type: '[Class!]!',
      deprecated: 'Use `children_response`.',
      ...bound('ParentBoundClassFilter', null, pageArgs),
    },
    parent: { type: 'Class', deprecated: 'Use `parent_response`.', own: true, ...byUuids('Class') },
    parent_uuid: { type: 'UUID', deprecated: useUuidField('parent'), own: true },
    parent_response: { since: responses, type: 'ClassResponse', response: 'one', own: true },
    org_uuid: { type: 'UUID!', deprecated: dropsRootOrganisation, own: true },
    full_name: { type: 'String!', from: 'name', deprecated: 'Use `name`: it is the same.' },
    top_level_facet: {
      type: 'Facet!',
      from: 'facet',
      deprecated: "Use `facet`: a class's children share its facet.",
    },
    it_system_response: empty(classNoItSystem, 'ITSystemResponse', { since: responses }),
    it_system: empty(classNoItSystem, 'ITSystem', {
      args: uuidsBoundArgs('ITSystem'),
      deprecated: 'Use `it_system_response`.',
    }),
    it_system_uuid: empty(classNoItSystem, 'UUID', { deprecated: 'Use `it_system_response { uuid }`.' }),
    published: omitted(facts.noPublication),
    // OS2mo 2.4.0 writes every class open at both ends (`service/facet.py`@2.4.0:763-764, its only class
    // write) and reads the classes in force (`get_one_class`), so OS2mo's answer for a 2.x class is an open
    // validity; a class bounded in LoRa by another tool is answered open too, as the Service API does not say.
    validity: { type: 'OpenValidity!', own: true },
    description: omitted(classNoDescription),
    type: omitted(facts.typeField),
  },
  more: {
    ...at(
      classWriteFields,
      ['ClassCreateInput', 'ClassUpdateInput'].flatMap((input) =>
        ['parent_uuid', 'example', 'owner', 'it_system_uuid', 'description'].map(
          (field) => `${input}.${field}`,
        ),
      ),
    ),
    // The filter member of the same fact: a class filter's `it_system` keeps no 2.x class given any value
    // (`{}` and UUIDs too: a 2.x class has no `mapninger` relation for them to name) and every one given
    // null, as OS2mo's class predicate asks for the relation whenever the member is not null
    // (`mora/graphapi/resolvers.py`@66.1.2:506-523; its default is null,
    // `mora/graphapi/filters.py`@66.1.2:258). The bound filters copy it, under their names before v26 and
    // after (`ItSystemboundclassfilter` binds it).
    ...at(classNoItSystem, ['ClassFilter.it_system', 'UuidsBoundClassFilter.it_system']),
    ...at(classNoItSystem, ['FacetsBoundClassFilter.it_system', 'ParentsBoundClassFilter.it_system'], {
      until: 26,
    }),
    ...at(classNoItSystem, ['FacetBoundClassFilter.it_system', 'ParentBoundClassFilter.it_system'], {
      since: 26,
    }),
    ...added(22, ['ClassFilter.owner', 'ClassOwnerFilter']),
    ...added(26, ['ClassFilter.name']),
  },
};
