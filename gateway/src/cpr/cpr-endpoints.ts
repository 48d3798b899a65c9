import { parse as parseYaml } from 'yaml';
import { endpointTemplates, type EndpointTemplates } from '../service-passthrough/endpoint-templates.js';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;

/**
 * Whether a schema can hold a `cpr_no` property anywhere inside it: its own properties, its items, its
 * `allOf`/`oneOf`/`anyOf` members and every `$ref` they reach (each followed once).
 */
function carriesCpr(schema: unknown, schemas: Node, seen: Set<string>): boolean {
  if (!isNode(schema)) return false;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '');
    if (seen.has(name)) return false;
    seen.add(name);
    return carriesCpr(schemas[name], schemas, seen);
  }
  const properties = isNode(schema.properties) ? schema.properties : {};
  if ('cpr_no' in properties) return true;
  const parts = [
    ...Object.values(properties),
    schema.items,
    schema.additionalProperties,
    ...['allOf', 'oneOf', 'anyOf'].flatMap((key) =>
      Array.isArray(schema[key]) ? (schema[key] as unknown[]) : [],
    ),
  ];
  return parts.some((part) => carriesCpr(part, schemas, seen));
}

/**
 * The contract's `/service` reads whose successful answer can carry a CPR number (`cpr_no`), as
 * `GET /service/e/{uuid}/`: the only answers the passthrough reads for CPR numbers, so every other answer
 * streams on untouched.
 */
export function cprEndpointsFromContract(contractText: string): string[] {
  const contract = parseYaml(contractText) as { paths?: Node; components?: { schemas?: Node } };
  const schemas = contract.components?.schemas ?? {};
  const found: string[] = [];
  for (const [path, item] of Object.entries(contract.paths ?? {})) {
    if (!path.startsWith('/service/') || !isNode(item) || !isNode(item.get)) continue;
    const responses = isNode(item.get.responses) ? item.get.responses : {};
    const ok = responses['200'];
    const content = isNode(ok) && isNode(ok.content) ? ok.content : {};
    const schema = Object.values(content).map((media) => (isNode(media) ? media.schema : undefined));
    if (schema.some((candidate) => carriesCpr(candidate, schemas, new Set()))) found.push(path);
  }
  return found;
}

/** Matches a request to the contract's reads that can carry a CPR number. */
export function cprEndpointMatcher(paths: readonly string[]): EndpointTemplates {
  return endpointTemplates(paths.map((path) => ({ method: 'GET', path })));
}
