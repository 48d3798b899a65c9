import type { ContentfulStatusCode } from 'hono/utils/http-status';

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
  facet: (facet: string) => new LegacyError(404, 'E_FACET_NOT_FOUND', 'Facet not found.', { facet }),
  itSystem: (uuid: string) =>
    new LegacyError(404, 'E_ITSYSTEM_NOT_FOUND', 'IT system not found.', { itsystem_uuid: uuid }),
  organisation: (uuid: string) =>
    new LegacyError(404, 'E_ORGANISATION_NOT_FOUND', 'Organisation not found.', { org_uuid: uuid }),
  detail: (type: string, uuid: string) =>
    new LegacyError(404, 'E_NOT_FOUND', `No ${type} with this UUID.`, { type, uuid }),
  endpoint: (path: string, method: string) =>
    new LegacyError(404, 'E_NO_SUCH_ENDPOINT', 'No such endpoint.', { method, path }),
};

export const invalid = {
  json: () => new LegacyError(400, 'E_INVALID_JSON', 'The request body is not valid JSON.'),
  input: (errors: { key: string; message: string }[]) =>
    new LegacyError(400, 'E_INVALID_INPUT', 'Invalid input.', { errors }),
  missing: (key: string) =>
    new LegacyError(400, 'V_MISSING_REQUIRED_VALUE', `Missing required value: ${key}.`, { key }),
  uuid: (key: string, value: unknown) =>
    new LegacyError(400, 'E_INVALID_UUID', `Invalid UUID in ${key}.`, { key, value }),
  date: (key: string, value: unknown) =>
    new LegacyError(400, 'V_INVALID_DATE', `Invalid date in ${key}; expected YYYY-MM-DD.`, { key, value }),
  endBeforeStart: (from: string, to: string) =>
    new LegacyError(400, 'V_END_BEFORE_START', 'End date is before start date.', { validity: { from, to } }),
  type: (value: unknown) =>
    new LegacyError(
      400,
      'E_INVALID_TYPE',
      'Unknown detail type; expected one of engagement, manager, owner, it.',
      {
        type: value,
      },
    ),
  wrongFacet: (key: string, classUuid: string, facet: string) =>
    new LegacyError(400, 'E_CLASS_WRONG_FACET', `The class given as ${key} is not a ${facet}.`, {
      key,
      class_uuid: classUuid,
      expected_facet: facet,
    }),
  unitOutsideRange: (uuid: string, validity: { from: string; to: string | null }) =>
    new LegacyError(
      400,
      'V_DATE_OUTSIDE_ORG_UNIT_RANGE',
      'Date range exceeds validity range of associated org unit.',
      {
        org_unit_uuid: uuid,
        wanted_validity: validity,
      },
    ),
  employeeOutsideRange: (uuid: string, validity: { from: string; to: string | null }) =>
    new LegacyError(
      400,
      'V_DATE_OUTSIDE_EMPL_RANGE',
      'Date range exceeds validity range of associated employee.',
      {
        employee_uuid: uuid,
        wanted_validity: validity,
      },
    ),
  moveToChild: (uuid: string, parent: string) =>
    new LegacyError(
      400,
      'V_ORG_UNIT_MOVE_TO_CHILD',
      'An org unit cannot be moved below itself or its own children.',
      {
        org_unit_uuid: uuid,
        parent_uuid: parent,
      },
    ),
  notActive: (type: string, uuid: string, date: string) =>
    new LegacyError(400, 'V_NOT_ACTIVE', `The ${type} is not active on the given date.`, {
      type,
      uuid,
      date,
    }),
  terminateWithChildren: (uuid: string, children: number, roles: number) =>
    new LegacyError(
      400,
      'V_TERMINATE_UNIT_WITH_CHILDREN_OR_ROLES',
      'Cannot terminate an org unit that still has active children or roles after the date.',
      { org_unit_uuid: uuid, child_count: children, role_count: roles },
    ),
  alreadyExists: (uuid: string) =>
    new LegacyError(409, 'E_ALREADY_EXISTS', 'An object with this UUID already exists.', { uuid }),
  tooLarge: (limit: number) =>
    new LegacyError(413, 'E_PAYLOAD_TOO_LARGE', `The request body exceeds ${limit} bytes.`, { limit }),
};
