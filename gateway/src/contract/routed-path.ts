/**
 * How a `/service` request is routed, reduced to what decides the route: the stand-in (Hono, `strict: false`)
 * serves `/service/e/{uuid}` and `/service/e/{uuid}/` alike and `POST /service/details/create/` as the create;
 * OS2mo 2.4.0 (FastAPI) answers `HEAD` with its `GET` route. Deprecation, usage and the coverage report all
 * match requests through these two functions, so no spelling of a path reaches a route under another name.
 */

/** `HEAD` is routed as `GET`; every other method as itself. */
export function routedMethod(method: string): string {
  return method === 'HEAD' ? 'GET' : method;
}

/** The path without its trailing slashes (`/service/o/` → `/service/o`); a UUID's case is left to the template's parameter. */
export function routedPath(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end -= 1;
  return end === path.length ? path : path.slice(0, end);
}

/** Whether a routed path lies under a prefix written as `/service/o/*` (given here as `/service/o/`): `/service/o` does. */
export function isUnderPrefix(path: string, prefix: string): boolean {
  const routed = routedPath(path);
  return routed.startsWith(prefix) || `${routed}/`.startsWith(prefix);
}
