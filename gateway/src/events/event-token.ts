/**
 * OS2mo's `EventToken` (`mora/graphapi/events.py`, HEAD): which event a fetch handed out and in which
 * generation, so an acknowledgement of an older delivery leaves an event sent again in the meantime pending.
 * Opaque to clients; here, as in OS2mo, base64 of `{event}.{generation}`.
 */
export interface EventToken {
  event: string;
  generation: string;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeEventToken(token: EventToken): string {
  return Buffer.from(`${token.event}.${token.generation}`).toString('base64');
}

/** The token, or undefined when the value is not one this gateway handed out. */
export function decodeEventToken(value: string): EventToken | undefined {
  const [event, generation, ...rest] = Buffer.from(value, 'base64').toString('utf8').split('.');
  if (rest.length > 0 || !event || !generation || !uuid.test(event) || !uuid.test(generation))
    return undefined;
  return { event, generation };
}
