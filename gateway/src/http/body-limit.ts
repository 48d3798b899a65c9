import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyAborted } from '../errors/request-body.js';
import { nodeBindings } from './node-bindings.js';

/**
 * The length a request declares for its body, when HTTP framing holds the body to it: Content-Length
 * without Transfer-Encoding. Undefined when the length is unknown until the body has been read.
 */
export function declaredLength(c: Context): number | undefined {
  const declared = c.req.header('content-length');
  if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return undefined;
  return Number.parseInt(declared, 10);
}

export interface BodyBounds {
  maxSize: number;
  /** Longest time the client may take to send the whole body, from when the gateway starts reading it. */
  timeoutMs: number;
}

export interface BufferedBodyOptions extends BodyBounds {
  /** The answer for a body over the size limit. */
  onTooLarge: (c: Context) => Response | Promise<Response>;
  /** The answer for a body not complete in time. */
  onTimeout: (c: Context) => Response | Promise<Response>;
}

/** A body that passed the size limit while it was read. */
export class BodyTooLarge extends Error {}
/** A body the client did not finish sending in time. */
export class BodyTooSlow extends Error {}
/** A body whose client closed the connection (or whose stream failed) before it ended. */
export class BodyAborted extends Error {
  constructor(cause?: unknown) {
    super('The client closed the request before its body ended.', { cause });
  }
}

/** Reads a Node request body whole, failing as soon as it passes `maxSize` or takes longer than `timeoutMs`. */
function readNodeBody(
  incoming: IncomingMessage,
  maxSize: number,
  timeoutMs: number,
): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error?: Error) => {
      clearTimeout(timer);
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      if (error) {
        // Stop reading: the answer says `Connection: close`, so the rest is never needed.
        incoming.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxSize) finish(new BodyTooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = (error: Error) => finish(new BodyAborted(error));
    const onAborted = () => finish(new BodyAborted());
    const timer = setTimeout(() => finish(new BodyTooSlow()), timeoutMs);
    incoming.on('data', onData).once('end', onEnd).once('error', onError).once('aborted', onAborted);
  });
}

/** Reads a Web request body whole (requests made with `app.fetch`), with the same limits. */
async function readWebBody(
  request: Request,
  maxSize: number,
  timeoutMs: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if (request.body === null) return new Uint8Array(new ArrayBuffer(0));
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new BodyTooSlow()), timeoutMs);
  });
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), late]);
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > maxSize) throw new BodyTooLarge();
      chunks.push(chunk.value);
    }
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a request's body whole, bounded in size and in time: `BodyTooLarge` for a body over `maxSize` (a
 * declared length is refused before a byte is read), `BodyTooSlow` for one not complete within `timeoutMs`,
 * `BodyAborted` for one whose client went away first.
 * Either way the answer is marked `Connection: close`, since the rest of the body is never read.
 */
export async function readBoundedBody(c: Context, bounds: BodyBounds): Promise<Uint8Array<ArrayBuffer>> {
  const declared = declaredLength(c);
  try {
    if (declared !== undefined && declared > bounds.maxSize) throw new BodyTooLarge();
    const { incoming } = nodeBindings(c);
    return incoming
      ? await readNodeBody(incoming, bounds.maxSize, bounds.timeoutMs)
      : await readWebBody(c.req.raw, bounds.maxSize, bounds.timeoutMs);
  } catch (error) {
    if (error instanceof BodyTooLarge || error instanceof BodyTooSlow) c.header('Connection', 'close');
    throw error;
  }
}

/**
 * Reads a request body whole before the route runs, bounded in size and in time: a body over `maxSize`
 * gets `onTooLarge`, one the client has not finished sending within `timeoutMs` gets `onTimeout` (both
 * close the connection). What follows sees the bytes read (`c.req.raw` is replaced), so a slow client
 * holds nothing further along — in particular no legacy connection — while its body trickles in.
 * GET and HEAD pass untouched.
 *
 * @example
 * app.use('/service/*', bufferedBody({ maxSize: 1_048_576, timeoutMs: 10_000, onTooLarge, onTimeout }));
 */
export function bufferedBody(options: BufferedBodyOptions): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = await readBoundedBody(c, options);
    } catch (error) {
      if (error instanceof BodyTooLarge) return options.onTooLarge(c);
      if (error instanceof BodyTooSlow) return options.onTimeout(c);
      throw error instanceof BodyAborted ? bodyAborted() : error;
    }
    c.req.raw = new Request(c.req.url, {
      method: c.req.method,
      headers: c.req.raw.headers,
      body: bytes.byteLength === 0 ? null : bytes,
    });
    return next();
  };
}
