import { routedMethod, routedPath } from './routed-path.js';

/** An operation of the contract as the matcher needs it: its method and path template. */
export interface EndpointOperation {
  method: string;
  /** The path as the contract writes it, e.g. `/service/ou/{uuid}/details/manager`. */
  path: string;
}

/** Finds the contract's endpoint template of a `/service` request. */
export interface EndpointTemplates {
  /**
   * `GET /service/ou/{uuid}/details/manager` for `GET /service/ou/0b…/details/manager`, or `undefined` when
   * no operation of the contract matches. Matched as routed (`routedPath`, `routedMethod`): `HEAD` as `GET`,
   * with or without a trailing slash.
   */
  match(method: string, path: string): string | undefined;
}

interface CompiledTemplate {
  key: string;
  /** The path's segments; `undefined` where the template has a parameter. */
  segments: (string | undefined)[];
  literals: number;
}

function compile(operation: EndpointOperation): CompiledTemplate {
  const segments = routedPath(operation.path)
    .split('/')
    .map((segment) => (/^\{[^}]+\}$/.test(segment) ? undefined : segment));
  return {
    key: `${operation.method} ${operation.path}`,
    segments,
    literals: segments.filter((segment) => segment !== undefined).length,
  };
}

function fits(template: CompiledTemplate, segments: string[]): boolean {
  return template.segments.every((expected, index) =>
    expected === undefined ? segments[index] !== '' : expected === segments[index],
  );
}

/**
 * The endpoint templates of a contract, matched segment by segment. Where two templates match (as
 * `/service/ou/{uuid}/` and `/service/ou/autocomplete/` both match `/service/ou/autocomplete/`), the one
 * with more literal segments wins, as a router would route it.
 *
 * @example
 * const templates = endpointTemplates(contractOperations);
 * templates.match('GET', '/service/ou/0b6a…/details/manager'); // 'GET /service/ou/{uuid}/details/manager'
 */
export function endpointTemplates(operations: readonly EndpointOperation[]): EndpointTemplates {
  // By method and segment count, most literal segments first: the first fit is the best.
  const byShape = new Map<string, CompiledTemplate[]>();
  for (const template of operations.map(compile)) {
    const shape = `${template.key.split(' ')[0]} ${template.segments.length}`;
    byShape.set(shape, [...(byShape.get(shape) ?? []), template]);
  }
  for (const templates of byShape.values()) templates.sort((a, b) => b.literals - a.literals);
  return {
    match(method, path) {
      const segments = routedPath(path).split('/');
      const candidates = byShape.get(`${routedMethod(method)} ${segments.length}`);
      return candidates?.find((template) => fits(template, segments))?.key;
    },
  };
}
