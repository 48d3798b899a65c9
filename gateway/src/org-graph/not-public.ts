/**
 * What the public may not see: the one list of org graph fields left out of the generated graph (and
 * so out of every version), each with its reason. Everything else the contract and `.meshrc.yaml`
 * give the graph is public: a new property in the contract appears in every version once
 * `npm run graph:generate` has run. An entry naming a field the graph does not have fails the
 * generation, so that the list does not outlive its reasons.
 */
export const notPublic: Readonly<Record<string, string>> = {
  'OrgUnit.location': 'not served yet: the versions read units from listings that do not carry it',
  'OrgUnit.org': 'there is one organisation; the versions do not show it',
  'OrgUnit.engagement_count': 'only with `count=engagement`, which the versions do not send: always null',
  'OrgUnit.association_count': 'only with `count=association`, which the versions do not send: always null',
  'Employee.org': 'there is one organisation; the versions do not show it',
  'Employee.cpr_no': 'a personal identity number: shown to no one until the versions decide who may read it',
  'Engagement.is_primary': 'only with `calculate_primary`, which the versions do not send: always null',
  'Engagement.person': 'the embedded reference; the public follows the `employee` link',
  'Engagement.org_unit_ref': 'the embedded reference; the public follows the `org_unit` link',
  'Manager.person': 'the embedded reference; the public follows the `employee` link',
  'Manager.org_unit_ref': 'the embedded reference; the public follows the `org_unit` link',
  'Owner.owner_ref': 'the embedded reference; the public follows the `owner` link',
  'Owner.org_unit_ref': 'the embedded reference; the public follows the `org_unit` link',
  'Owner.person_ref': 'the embedded reference; the public follows the `person` link',
  'ITUser.itsystem_ref': 'the embedded reference; the public follows the `itsystem` link',
  'ITUser.person': 'the embedded reference; the public follows the `employee` link',
  'ITUser.org_unit_ref': 'the embedded reference; the public follows the `org_unit` link',
  'Address.person': 'the embedded reference; the public follows the `employee` link',
  'Address.org_unit_ref': 'the embedded reference; the public follows the `org_unit` link',
  'Address.engagement_ref': 'the embedded reference; the public reads `engagement_uuid`',
  'Association.person': 'the embedded reference; the public follows the `employee` link',
  'Association.org_unit_ref': 'the embedded reference; the public follows the `org_unit` link',
  'Association.substitute_ref': 'the embedded reference; the public follows the `substitute` link',
  'Association.first_party_association_type':
    'only with `first_party_perspective`, which the versions do not send',
  'Association.third_party_associated': 'only with `first_party_perspective`, which the versions do not send',
  'Association.third_party_association_type':
    'only with `first_party_perspective`, which the versions do not send',
  'Role.person': 'the embedded reference; the public follows the `employee` link',
  'Role.org_unit_ref': 'the embedded reference; the public follows the `org_unit` link',
  'Leave.person': 'the embedded reference; the public follows the `employee` link',
  'Leave.engagement_ref': 'the embedded reference; the public reads `engagement_uuid`',
  'KLE.org_unit_ref': 'the embedded reference; the public follows the `org_unit` link',
  'RelatedUnit.org_unit_refs': 'the embedded references; the public follows the `org_units` link',
  'EngagementAssociation.org_unit_ref': 'the embedded reference; the public follows the `org_unit` link',
  'EngagementAssociation.engagement_ref': 'the embedded reference; the public reads `engagement_uuid`',
  'Class.facet_ref': 'the embedded reference; the public follows the `facet` link',
  'Facet.path': 'a path of the legacy service, which stays internal',
  'Facet.data': 'the legacy paging of the classes; the public reads `classes`',
  'CprLookup.cpr_no':
    'a personal identity number: the lookup answers the name for the number the caller sent',
};
