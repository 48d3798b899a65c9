import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import type { GraphQLContext, Source } from '../context.js';
import { readerOf } from '../../cpr/cpr-policy.js';

const cprPattern = /^\d{10}$/;

function parseCpr(value: unknown): string {
  if (typeof value !== 'string' || !cprPattern.test(value)) {
    throw new GraphQLError('A CPR number is ten digits, without a dash.', {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
  return value;
}

/** OS2mo's `CPR`: a Danish personal identity number, ten digits. */
export const cprScalar = new GraphQLScalarType({
  name: 'CPR',
  description: 'A Danish personal identity number (CPR), ten digits.',
  serialize: (value) => String(value),
  parseValue: parseCpr,
  parseLiteral: (node: ValueNode) => parseCpr(node.kind === Kind.STRING ? node.value : undefined),
});

/**
 * `Employee.cpr_number`, as OS2mo serves it: the person's CPR number from the Service API's person record
 * (which gives it to every authenticated reader), or `null` for a reader `CPR_READ_ROLES` leaves out. Every
 * number served is logged — who read it (the token's subject and client), whose it is and the request's
 * ids — never the number itself.
 */
export async function cprNumber(
  source: Source,
  _args: unknown,
  context: GraphQLContext,
): Promise<string | null> {
  if (context.cpr?.mayRead === false) return null;
  const record = 'cpr_no' in source ? source : await context.legacy.employee(source.uuid, source.__at);
  const cpr = typeof record?.cpr_no === 'string' && record.cpr_no !== '' ? record.cpr_no : null;
  if (cpr !== null) logCprRead(context, source.uuid);
  return cpr;
}

/**
 * Logs one read of a CPR number: who read it (the token's subject and client) and whose it is (null for a
 * number that names nobody), never the number itself.
 */
export function logCprRead(context: GraphQLContext, employee: string | null): void {
  context.log?.info(
    {
      cpr_read: {
        road: 'graphql',
        employee,
        ...readerOf(context.principal),
        ...context.cpr?.ids,
      },
    },
    'CPR number read',
  );
}
