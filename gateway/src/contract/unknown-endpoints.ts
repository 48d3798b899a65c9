import { routedMethod, routedPath } from './routed-path.js';

const uuidSegment = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const wordSegment = /^[a-z][a-z0-9_.-]{0,39}$/i;

/**
 * The usage label of a `/service` path the contract does not have: its method and path, routed as the
 * contract's templates are (`HEAD` as `GET`, no trailing slash), with each UUID as `{uuid}`, each number as
 * `{n}` and any other segment that is not a short word as `{x}`, so one endpoint called for many objects is one
 * label.
 *
 * @example
 * unknownEndpointLabel('GET', '/service/ou/0b6a…/refresh/'); // 'GET /service/ou/{uuid}/refresh'
 */
export function unknownEndpointLabel(method: string, path: string): string {
  const shape = routedPath(path)
    .split('/')
    .map((segment) =>
      segment === ''
        ? ''
        : uuidSegment.test(segment)
          ? '{uuid}'
          : /^\d+$/.test(segment)
            ? '{n}'
            : wordSegment.test(segment)
              ? segment
              : '{x}',
    )
    .join('/');
  return `${routedMethod(method)} ${shape}`;
}

/**
 * Labels for unknown paths, at most `max` different ones: a label already given is given again, and once
 * `max` are in use any new path is `unmatched`. This keeps usage's labels bounded whatever callers send.
 */
export function unknownEndpointLabels(max: number): (method: string, path: string) => string {
  const given = new Set<string>();
  return (method, path) => {
    const label = unknownEndpointLabel(method, path);
    if (given.has(label)) return label;
    if (given.size >= max) return 'unmatched';
    given.add(label);
    return label;
  };
}
