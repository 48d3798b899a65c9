import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Validity } from './model.js';

/** The legacy service's error body: `{error, status, error_key, description, ...context}`. */
export interface LegacyErrorBody {
  error: true;
  status: number;
  error_key: string;
  description: string;
  [context: string]: unknown;
}

export class LegacyError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly errorKey: string,
    readonly description: string,
    readonly context: Record<string, unknown> = {},
  ) {
    super(description);
    this.name = 'LegacyError';
  }

  toBody(): LegacyErrorBody {
    return {
      ...this.context,
      error: true,
      status: this.status,
      error_key: this.errorKey,
      description: this.description,
    };
  }
}

export const notFound = {
  orgUnit: (uuid: string) =>
    new LegacyError(404, 'E_ORG_UNIT_NOT_FOUND', 'Org unit not found.', { org_unit_uuid: uuid }),
  employee: (uuid: string) =>
    new LegacyError(404, 'E_USER_NOT_FOUND', 'User not found.', { employee_uuid: uuid }),
  class: (uuid: string) =>
    new LegacyError(404, 'E_CLASS_NOT_FOUND', 'Class not found.', { class_uuid: uuid }),
  // OS2mo answers these with its generic keys and no context members.
  facet: (_facet: string) => new LegacyError(404, 'E_NOT_FOUND', 'Facet not found.'),
  itSystem: (_uuid: string) => new LegacyError(404, 'E_NOT_FOUND', 'IT system not found.'),
  /** OS2mo has no route for an organisation other than its own. */
  organisation: (_uuid: string) => new LegacyError(404, 'E_NO_SUCH_ENDPOINT', 'No such endpoint.'),
  detail: (type: string, _uuid: string) => new LegacyError(404, 'E_NOT_FOUND', `No ${type} with this UUID.`),
  endpoint: (_path: string, _method: string) =>
    new LegacyError(404, 'E_NO_SUCH_ENDPOINT', 'No such endpoint.'),
};

/** OS2mo 2.4.0's keys and statuses (`mora/exceptions.py`) for the same mistakes; descriptions in our words. */
export const invalid = {
  /** A body that is not JSON (OS2mo's request validation answers with `E_INVALID_INPUT` too). */
  json: () => new LegacyError(400, 'E_INVALID_INPUT', 'Invalid input: the request body is not valid JSON.'),
  /** A body nested deeper than any write needs: refused before anything walks it (recursion would overflow). */
  tooDeep: (maxDepth: number) =>
    new LegacyError(
      400,
      'E_INVALID_INPUT',
      `Invalid input: the request body is nested more than ${maxDepth} levels deep.`,
      { errors: [{ key: 'body', message: `must be nested at most ${maxDepth} levels deep` }] },
    ),
  input: (errors: { key: string; message: string }[]) =>
    new LegacyError(400, 'E_INVALID_INPUT', 'Invalid input.', { errors }),
  /** `obj` is the object that lacks the value, as OS2mo shows it. */
  missing: (key: string, obj: unknown = null) =>
    new LegacyError(400, 'V_MISSING_REQUIRED_VALUE', `Missing ${key}`, { key, obj }),
  missingStartDate: (obj: unknown = null) =>
    new LegacyError(400, 'V_MISSING_START_DATE', 'Missing start date.', { obj }),
  /** A member of the wrong JSON type (OS2mo's `checked_get`). */
  wrongType: (key: string, expected: string, actual: unknown) =>
    new LegacyError(400, 'E_INVALID_TYPE', `Invalid '${key}', expected ${expected}.`, {
      key,
      expected,
      actual,
    }),
  /** A malformed UUID inside a body; `obj` is the object that holds it. */
  uuid: (key: string, obj: unknown) =>
    new LegacyError(400, 'E_INVALID_UUID', `Invalid UUID in ${key}.`, { obj }),
  /** A malformed UUID in a path or query: OS2mo's request validation answers E_INVALID_INPUT. */
  pathUuid: (key: string, value: unknown) =>
    new LegacyError(400, 'E_INVALID_INPUT', `Invalid input: ${key} is not a UUID.`, {
      errors: [{ key, message: 'must be a UUID' }],
      value,
    }),
  validityFilter: (value: string) =>
    new LegacyError(
      400,
      'V_INVALID_VALIDITY',
      'Invalid validity: expected present, past, future or FROM/TO.',
      {
        validity: value,
      },
    ),
  date: (key: string, value: unknown) =>
    new LegacyError(400, 'E_INVALID_INPUT', `Invalid date in ${key}; expected YYYY-MM-DD.`, { key, value }),
  endBeforeStart: (from: string, to: string, obj: unknown = { validity: { from, to } }) =>
    new LegacyError(400, 'V_END_BEFORE_START', 'End date is before start date.', { obj }),
  /** A detail type OS2mo does not have (reads and writes alike). */
  unknownRoleType: (value: unknown) =>
    new LegacyError(400, 'E_UNKNOWN_ROLE_TYPE', 'Unknown role type.', { type: value }),
  type: (value: unknown) => invalid.unknownRoleType(value),
  wrongFacet: (key: string, classUuid: string, facet: string) =>
    new LegacyError(400, 'E_CLASS_WRONG_FACET', `The class given as ${key} is not a ${facet}.`, {
      key,
      class_uuid: classUuid,
      expected_facet: facet,
    }),
  /** `range` is the unit's own validity (first start, last end), `validity` the one asked for, as OS2mo shows them. */
  unitOutsideRange: (uuid: string, validity: Validity, range: Validity | null = null) =>
    new LegacyError(
      400,
      'V_DATE_OUTSIDE_ORG_UNIT_RANGE',
      'Date range exceeds validity range of associated org unit.',
      {
        org_unit_uuid: uuid,
        valid_from: range?.from ?? null,
        valid_to: range?.to ?? null,
        wanted_valid_from: validity.from,
        wanted_valid_to: validity.to,
      },
    ),
  employeeOutsideRange: (_uuid: string, validity: Validity, range: Validity | null = null) =>
    new LegacyError(
      400,
      'V_DATE_OUTSIDE_EMPL_RANGE',
      'Date range exceeds validity range of associated employee.',
      {
        valid_from: range?.from ?? null,
        valid_to: range?.to ?? null,
        wanted_valid_from: validity.from,
        wanted_valid_to: validity.to,
      },
    ),
  moreThanOneAssociation: (existing: string[]) =>
    new LegacyError(
      400,
      'V_MORE_THAN_ONE_ASSOCIATION',
      'The person already has an active association with the unit.',
      {
        existing,
      },
    ),
  noActiveEngagement: (employee: string) =>
    new LegacyError(
      400,
      'V_NO_ACTIVE_ENGAGEMENT',
      'The person must have an engagement throughout the period.',
      {
        employee,
      },
    ),
  /** Neither or both of two members that exclude each other (OS2mo names the object). */
  exactlyOne: (obj: unknown) =>
    new LegacyError(400, 'E_INVALID_INPUT', 'Invalid input: give exactly one of org_unit and person.', {
      obj,
    }),
  moveToChild: (uuid: string, _parent?: string) =>
    new LegacyError(
      400,
      'V_ORG_UNIT_MOVE_TO_CHILD',
      'An org unit cannot be moved below itself or its own children.',
      // OS2mo names only the unit; the wanted parent is what the client sent.
      { org_unit_uuid: uuid },
    ),
  notActive: (type: string, uuid: string, date: string) =>
    new LegacyError(400, 'V_NOT_ACTIVE', `The ${type} is not active on the given date.`, {
      type,
      uuid,
      date,
    }),
  /** OS2mo's three keys: children, roles (named by type), or both. */
  terminateWithChildren: (uuid: string, children: number, roles: string[]) =>
    children > 0 && roles.length > 0
      ? new LegacyError(
          400,
          'V_TERMINATE_UNIT_WITH_CHILDREN_AND_ROLES',
          'Cannot terminate an org unit that still has active children and roles after the date.',
          { child_count: children, roles: roles.join(', ') },
        )
      : children > 0
        ? new LegacyError(
            400,
            'V_TERMINATE_UNIT_WITH_CHILDREN',
            'Cannot terminate an org unit that still has active children after the date.',
            { child_count: children },
          )
        : new LegacyError(
            400,
            'V_TERMINATE_UNIT_WITH_ROLES',
            'Cannot terminate an org unit that still has active roles after the date.',
            { roles: roles.join(', ') },
          ),
  cprNotValid: (value: unknown) =>
    new LegacyError(400, 'V_CPR_NOT_VALID', 'Not a valid CPR number.', { cpr: value }),
  noPersonForCpr: () =>
    new LegacyError(404, 'V_NO_PERSON_FOR_CPR', 'No person found for the given CPR number.'),
  existingCpr: (cpr: string) =>
    new LegacyError(409, 'V_EXISTING_CPR', 'A person with this CPR number already exists.', { cpr }),
  substituteSelf: () =>
    new LegacyError(400, 'V_CANNOT_SUBSTITUTE_SELF', 'A person cannot be their own substitute.'),
  duplicatedResponsibility: (uuid: string) =>
    new LegacyError(
      400,
      'V_DUPLICATED_RESPONSIBILITY',
      'The manager has the same responsibility more than once.',
      {
        duplicates: [uuid],
      },
    ),
  address: (scope: string, value: string) =>
    new LegacyError(400, `V_INVALID_ADDRESS_${scope}`, `The value is not a valid ${scope} address.`, {
      value,
    }),
  moveRoot: (_uuid: string) =>
    new LegacyError(400, 'V_CANNOT_MOVE_ROOT_ORG_UNIT', 'The top unit cannot be moved.'),
  moveToRoot: (_uuid: string) =>
    new LegacyError(400, 'V_CANNOT_MOVE_UNIT_TO_ROOT_LEVEL', 'A unit cannot be moved to the top level.'),
  alreadyExists: (uuid: string) =>
    new LegacyError(409, 'E_ALREADY_EXISTS', 'An object with this UUID already exists.', { uuid }),
  tooLarge: (limit: number) =>
    new LegacyError(413, 'E_PAYLOAD_TOO_LARGE', `The request body exceeds ${limit} bytes.`, { limit }),
};
