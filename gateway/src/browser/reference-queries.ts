/**
 * The line the page replaces with the reference units it finds at run time (`GET /browser/reference-units`),
 * one quoted UUID per line at this line's indentation.
 */
export const referenceUnitsMarker = 'REFERENCE_UNITS';

/** The specification's example selection; it is valid on every version, only the response shape differs. */
const selection = `{
  org_units(
    filter: {
      uuids: [
        ${referenceUnitsMarker}
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
 * The query GraphiQL opens with, per version: the specification's reference query, with a note on the
 * response shape of that version. The units are the backend's own, filled in by the page after sign-in.
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

/**
 * The same reference query in OS2mo's v30 shape: each unit's `current` state, its links through the
 * `*_response` fields v30 keeps (the plain links are deprecated there).
 */
const os2moSelection = `{
  org_units(
    filter: {
      uuids: [
        ${referenceUnitsMarker}
      ]
    }
  ) {
    objects {
      current {
        name
        managers_response {
          objects {
            current {
              manager_type_response {
                current {
                  user_key
                }
              }
              person_response {
                current {
                  name
                  engagements_response {
                    objects {
                      current {
                        job_function_response {
                          current {
                            user_key
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
`;

/**
 * What GraphiQL opens with, per version: the gateway's own versions' reference queries, and the newest OS2mo
 * version's. The workbench compares only the gateway's own versions (`referenceQueries`).
 */
export const graphiqlQueries: Readonly<Record<string, string>> = {
  ...referenceQueries,
  v30: `${heading}#
# v30 is OS2mo's GraphQL: each unit answers
# with uuid and current; person is a list.
# Its links are v30's *_response fields, each
# answering { current } (or a page of them).
query ReferenceQuery ${os2moSelection}`,
};
