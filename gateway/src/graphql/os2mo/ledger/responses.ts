import { added, type CoordinateEntry } from './entry.js';

/** The collections' response wrappers (`XResponse`), whose time arguments OS2mo added in v22. */
const wrapped = [
  'OrganisationUnit',
  'Employee',
  'Engagement',
  'Manager',
  'Class',
  'Facet',
  'ITSystem',
  'Owner',
  'Address',
  'Association',
  'ITUser',
  'KLE',
  'Leave',
  'RelatedUnit',
];

export const responseLedger: Readonly<Record<string, CoordinateEntry>> = added(
  22,
  wrapped.flatMap((type) => [
    `${type}Response.current(at:)`,
    `${type}Response.objects(start:)`,
    `${type}Response.objects(end:)`,
    `${type}Response.validities(start:)`,
    `${type}Response.validities(end:)`,
  ]),
);
