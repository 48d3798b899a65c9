import { referenceUnitUuids } from '../../../legacy-service/src/fixture/organisation.js';

const uuidLines = referenceUnitUuids.map((uuid) => `        "${uuid}"`).join('\n');

/** The specification's example selection; it is valid on every version, only the response shape differs. */
const selection = `{
  org_units(
    filter: {
      uuids: [
${uuidLines}
      ]
    }
  ) {
    objects {
      name
      managers {
        manager_type {
          user_key
        }
        employee {
          name
          engagements {
            job_function {
              user_key
            }
          }
        }
      }
    }
  }
}
`;

// Short lines: GraphiQL's query editor shows about 55 characters on a laptop screen.
const heading = `# The specification's reference query: managers,
# manager types and job functions of three units
# in one request. Run it with Ctrl+Enter.
`;

/**
 * The query GraphiQL opens with, per version: the specification's reference query over the seeded
 * organisation's three reference units, with a note on the response shape of that version.
 */
export const referenceQueries: Readonly<Record<string, string>> = {
  v1: `${heading}#
# v1 answers with a list, one element per unit,
# each wrapping its objects; employee is a list.
query ReferenceQuery ${selection}`,
  v2: `${heading}#
# v2 answers with { objects, page_info };
# employee is a single object.
query ReferenceQuery ${selection}`,
};
