import { Hono, type Context } from 'hono';
import { invalid, notFound } from '../errors.js';
import { BodyReader } from '../input.js';
import type { OrgData } from '../org-data.js';
import { covers, coversInterval, versionAt } from '../time.js';
import { addressFormats } from '../writes/detail-writes.js';
import { requireEmployeeDuring, requireUnitDuring } from '../writes/checks.js';
import { isSelfOrDescendant } from '../writes/org-unit-writes.js';
import { readFlag } from './read-params.js';

export interface ValidateRouteOptions {
  data: OrgData;
}

const success = { success: true } as const;

async function readBody(c: Context): Promise<BodyReader> {
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text()) as unknown;
  } catch {
    throw invalid.json();
  }
  return BodyReader.of(body);
}

/**
 * OS2mo 2.4.0's validation router (`backend/mora/service/validation/validate.py`, mounted at `/validate`):
 * the checks its frontend runs before a write, each answering `{"success": true}` or the error the write would
 * answer. They write nothing. As there, the body's required members are read first, and `?force=1` then skips
 * the check itself (validator.py's `forceable`).
 */
export function validateRoutes({ data }: ValidateRouteOptions): Hono {
  const app = new Hono({ strict: false });

  /** Reads the request (always) and runs the check unless `force` is set. */
  const check = (read: (body: BodyReader) => () => void) => async (c: Context) => {
    const run = read(await readBody(c));
    if (!readFlag(c, 'force')) run();
    return c.json(success);
  };

  // validate.py:18: the dates lie within the unit's validity.
  app.post(
    '/validate/org-unit',
    check((body) => {
      const unit = body.ref('org_unit');
      const validity = body.validity();
      return () => requireUnitDuring(data, unit, validity);
    }),
  );

  // validate.py:62: the dates lie within the person's validity.
  app.post(
    '/validate/employee',
    check((body) => {
      const person = body.ref('person');
      const validity = body.validity();
      return () => requireEmployeeDuring(data, person, validity);
    }),
  );

  // validate.py:100: nobody has the CPR number yet.
  app.post(
    '/validate/cpr',
    check((body) => {
      const cpr = body.string('cpr_no');
      body.ref('org');
      return () => {
        if (data.employeesByCpr(cpr).length > 0) throw invalid.existingCpr(cpr);
      };
    }),
  );

  // validate.py:136: the person has an engagement throughout the dates.
  app.post(
    '/validate/active-engagements',
    check((body) => {
      const person = body.ref('person');
      const validity = body.validity();
      return () => {
        const engaged = data.detailsOfPerson<{ person: string }>('engagement', person).some((engagement) =>
          coversInterval(
            {
              uuid: engagement.uuid,
              versions: engagement.versions.filter((item) => item.person === person),
            },
            validity,
          ),
        );
        if (!engaged) throw invalid.noActiveEngagement(person);
      };
    }),
  );

  // validate.py:175: no other association of the person with the unit on the start date.
  app.post(
    '/validate/existing-associations',
    check((body) => {
      const person = body.ref('person');
      const unit = body.ref('org_unit');
      const own = body.optionalUuid('uuid');
      const { from } = body.validity();
      return () => {
        const existing = data
          .detailsOfPerson<{ person: string | null; org_unit: string }>('association', person)
          .filter((other) => other.uuid !== own)
          .filter((other) =>
            other.versions.some(
              (item) => item.person === person && item.org_unit === unit && covers(item, from),
            ),
          )
          .map((other) => other.uuid);
        if (existing.length > 0) throw invalid.moreThanOneAssociation(existing);
      };
    }),
  );

  // validate.py:224: the unit is not a top unit.
  app.post(
    '/validate/movable-org-unit',
    check((body) => {
      const uuid = body.ref('org_unit');
      return () => {
        const unit = data.orgUnit(uuid);
        if (unit.versions[0]?.parent === null) throw invalid.moveRoot(uuid);
      };
    }),
  );

  // validate.py:233 (validator.py:231-283): the parent is a unit, not the organisation, not the unit itself or
  // below it, and in force on the date of the move.
  app.post(
    '/validate/candidate-parent-org-unit',
    check((body) => {
      const uuid = body.ref('org_unit');
      const parent = body.ref('parent');
      const { from } = body.validity();
      return () => {
        data.orgUnit(uuid);
        if (data.organisations().some((organisation) => organisation.uuid === parent)) {
          throw invalid.moveToRoot(uuid);
        }
        if (isSelfOrDescendant(data, uuid, parent, from)) throw invalid.moveToChild(uuid, parent);
        const candidate = data.findOrgUnit(parent);
        if (!candidate) throw notFound.orgUnit(parent);
        if (!versionAt(candidate, from)) throw invalid.unitOutsideRange(parent, { from, to: from });
      };
    }),
  );

  // validate.py:281: the value fits its address type's scope (a phone number is digits, …).
  app.post(
    '/validate/address',
    check((body) => {
      const type = body.ref('address_type');
      const value = body.string('value');
      return () => {
        const scope = data.class(type).scope ?? 'TEXT';
        const format = addressFormats[scope];
        if (format && !format.test(value)) throw invalid.address(scope, value);
      };
    }),
  );

  return app;
}
