import { Hono } from 'hono';
import { notFound } from '../errors.js';
import { requireUuid } from '../input.js';
import type { OrgData } from '../org-data.js';
import { today, versionAt } from '../time.js';
import { personNames, validityOf } from '../views.js';

export interface IntegrationDataRouteOptions {
  data: OrgData;
  clock: () => Date;
}

/**
 * OS2mo 2.4.0's integration-data reads (`backend/mora/service/integration_data.py`) and a unit's refresh
 * (`service/orgunit.py:1043`). A unit or person today in its minimal form with `integration_data`, the JSON
 * an importer stored on the LoRa object: the stand-in stores none, so it is `{}`, as 2.4.0 answers for an
 * object without. A refresh runs the unit's triggers and answers their messages joined by newlines; the
 * stand-in has no triggers (as 2.4.0 without `HTTP_ENDPOINTS` or AMQP), so the message is empty.
 */
export function integrationDataRoutes({ data, clock }: IntegrationDataRouteOptions): Hono {
  const app = new Hono({ strict: false });

  const unitToday = (raw: string) => {
    const uuid = requireUuid('uuid', raw);
    const unit = data.orgUnit(uuid);
    const version = versionAt(unit, today(clock()));
    if (!version) throw notFound.orgUnit(uuid);
    return { unit, version };
  };

  app.get('/ou/:uuid/integration-data', (c) => {
    const { unit, version } = unitToday(c.req.param('uuid'));
    return c.json({
      name: version.name,
      user_key: version.user_key,
      uuid: unit.uuid,
      integration_data: {},
      validity: validityOf(version),
    });
  });

  app.get('/e/:uuid/integration-data', (c) => {
    const uuid = requireUuid('uuid', c.req.param('uuid'));
    const version = versionAt(data.employee(uuid), today(clock()));
    if (!version) throw notFound.employee(uuid);
    const { name, givenname, surname, nickname, nickname_givenname, nickname_surname, seniority } =
      personNames(version);
    return c.json({
      givenname,
      surname,
      name,
      nickname_givenname,
      nickname_surname,
      nickname,
      uuid,
      seniority,
      integration_data: {},
    });
  });

  app.get('/ou/:uuid/refresh', (c) => {
    unitToday(c.req.param('uuid'));
    return c.json({ message: '' });
  });

  return app;
}
