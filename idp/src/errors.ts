import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * An RFC 6749 error as Keycloak sends it: `{"error": …, "error_description": …}` with Keycloak's status
 * and wording, so clients and the gateway meet the same answers as in production.
 */
export class OAuthError extends Error {
  override name = 'OAuthError';

  constructor(
    readonly status: ContentfulStatusCode,
    readonly error: string,
    readonly description?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(description ?? error);
  }
}

export function oauthErrorResponse(c: Context, failure: OAuthError): Response {
  for (const [name, value] of Object.entries(failure.headers)) c.header(name, value);
  c.header('Cache-Control', 'no-store');
  const body: Record<string, string> = { error: failure.error };
  if (failure.description !== undefined) body['error_description'] = failure.description;
  return c.json(body, failure.status);
}
