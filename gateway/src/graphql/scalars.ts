import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;

function isDate(value: string): boolean {
  if (!datePattern.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

function stringScalar(name: string, description: string, check: (value: string) => boolean, hint: string) {
  const parse = (value: unknown) => {
    if (typeof value !== 'string' || !check(value)) {
      throw new GraphQLError(`${name} must be ${hint}; got ${JSON.stringify(value)}.`, {
        extensions: { code: 'BAD_USER_INPUT' },
      });
    }
    return name === 'UUID' ? value.toLowerCase() : value;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: (value) => String(value),
    parseValue: parse,
    parseLiteral: (node: ValueNode) => parse(node.kind === Kind.STRING ? node.value : undefined),
  });
}

export const scalarResolvers = {
  UUID: stringScalar(
    'UUID',
    'A UUID in its canonical text form.',
    (value) => uuidPattern.test(value),
    'a UUID',
  ),
  Date: stringScalar('Date', 'A calendar date written YYYY-MM-DD.', isDate, 'a date written YYYY-MM-DD'),
  Cursor: stringScalar(
    'Cursor',
    'An opaque pagination cursor.',
    (value) => /^[A-Za-z0-9_-]{1,200}$/.test(value),
    'a cursor from page_info.next_cursor',
  ),
};
