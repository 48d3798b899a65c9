import { GraphQLError } from 'graphql';
import type { GraphQLContext } from '../../context.js';
import { legacyPaths } from '../../../legacy/legacy-paths.js';
import type { Input } from '../../write-mapping/legacy-body.js';

/** What the Service API publishes every class as (OS2mo 2.4.0 `common.py:615`, `create_klasse_payload`). */
const published = 'Publiceret';

function refuse(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

/**
 * The body of OS2mo 2.4.0's `POST /service/f/{facet}/` (`MOClass`, `service/models.py:9`): the class's UUID,
 * name, user key, scope and the organisation. 2.4.0 writes a class in force for all time and published
 * (`service/facet.py:763-764`, `common.py:615`), so an input asking otherwise is refused rather than dropped.
 */
async function classBody(input: Input, context: GraphQLContext) {
  const validity = input.validity as { to?: unknown } | null | undefined;
  if (validity?.to !== null && validity?.to !== undefined) {
    throw refuse(
      'A class cannot be given an end: the Service API keeps a class for all time (OS2mo 2.4.0 service/facet.py:763). Leave validity.to out.',
    );
  }
  if (input.published !== undefined && input.published !== published) {
    throw refuse(
      `A class can only be written published: the Service API publishes every class it writes; got published ${JSON.stringify(input.published)}.`,
    );
  }
  return {
    ...(input.uuid ? { uuid: input.uuid } : {}),
    name: input.name,
    user_key: input.user_key,
    scope: input.scope ?? null,
    org_uuid: await context.legacy.organisationUuid(),
  };
}

/**
 * `class_create` and `class_update`: one `POST /service/f/{facet_uuid}/` each (so RBAC decides them as the
 * `/service` class write: admin only), answering the class's UUID as the root of OS2mo's `ClassResponse`.
 * 2.4.0 creates the class when the UUID is new and writes it anew when a class has it.
 */
export function classResolvers() {
  const write = async (input: Input, context: GraphQLContext) => {
    const body = await classBody(input, context);
    const uuid = await context.legacy.post<string>(legacyPaths.classWrite(String(input.facet_uuid)), body);
    return { uuid: String(uuid) };
  };
  return {
    class_create: (_: unknown, { input }: { input: Input }, context: GraphQLContext) => write(input, context),
    class_update: (_: unknown, { input }: { input: Input }, context: GraphQLContext) => write(input, context),
  };
}
