import type { Context } from 'hono';

/** The form body of a POST; empty unless it is `application/x-www-form-urlencoded`, as Keycloak reads it. */
export async function readForm(c: Context): Promise<URLSearchParams> {
  const type = c.req.header('Content-Type') ?? '';
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) return new URLSearchParams();
  return new URLSearchParams(await c.req.text());
}

export function queryParams(c: Context): URLSearchParams {
  return new URL(c.req.url).searchParams;
}

/** RFC 6749 §3.2: request parameters must not repeat. */
export function hasDuplicatedParameter(params: URLSearchParams): boolean {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) return true;
    seen.add(name);
  }
  return false;
}
