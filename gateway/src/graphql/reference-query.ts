/**
 * The specification's reference query: managers, manager types and job functions of the units named in
 * `$uuids`, in one request. It is valid on every version; only the response shape differs. GraphiQL opens
 * with its own annotated copy (`browser/reference-queries.ts`) that names the units inline.
 */
export const referenceQuery = /* GraphQL */ `
  query Reference($uuids: [UUID!]) {
    org_units(filter: { uuids: $uuids }) {
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

/** The same query on one line: what the benchmark sends and `npm start` prints in its curl example. */
export const referenceQueryOneLine = referenceQuery.replace(/\s+/g, ' ').trim();

/**
 * The reference query in OS2mo's shape (v21 … v30): each unit's `current` state, a manager's `person` a list.
 * The same 6 legacy requests in 2 rounds as the gateway's own versions (`test/os2mo-v30-reads.test.ts`).
 */
export const os2moReferenceQuery = /* GraphQL */ `
  query Reference($uuids: [UUID!]) {
    org_units(filter: { uuids: $uuids }) {
      objects {
        current {
          name
          managers {
            manager_type {
              user_key
            }
            person {
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
  }
`;

/** The OS2mo-shaped query on one line, as `npm start` prints it in its curl example. */
export const os2moReferenceQueryOneLine = os2moReferenceQuery.replace(/\s+/g, ' ').trim();
