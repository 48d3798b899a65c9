import { randomUUID } from 'node:crypto';
import { hasRepeatedParameter } from './service-path.js';

/**
 * Which requests the `/service` read lane may answer on Node's own request: those whose target and `Host`
 * the Hono app would see unchanged. @hono/node-server makes the app's URL with `new URL`, which resolves dot
 * segments, percent-encodes some characters, lower-cases the host and rewrites numeric hosts; a request for
 * which it might do any of that goes to the app, so both lanes always route, log and attribute the same path.
 */

/** Path characters URL keeps as they are; `%` is left out because Hono decodes a path that has one. */
const plainPath = /^\/service\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** Query characters URL keeps as they are (it encodes `'`, `"`, `<`, `>` and spaces in an http query). */
const plainQuery = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*$/;
/** A `.` or `..` segment, which URL resolves. */
const dotSegment = /\/\.{1,2}(?:\/|$)/;

/** A `/service/…` request target (path and query) that URL parsing would leave exactly as it is. */
export function isPlainServiceTarget(target: string): boolean {
  const queryStart = target.indexOf('?');
  const path = queryStart === -1 ? target : target.slice(0, queryStart);
  if (!plainPath.test(path) || dotSegment.test(path)) return false;
  if (queryStart === -1) return true;
  const query = target.slice(queryStart + 1);
  // A one-value parameter given twice is the app's to refuse (`canonicalServicePath`).
  return plainQuery.test(query) && !hasRepeatedParameter(query);
}

const hostName = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;
const dottedQuad = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/** A last label URL reads as a number (decimal, or hex with `0x`), which makes the host an IPv4 address. */
const numericLabel = /^(?:\d+|0x[0-9a-f]*)$/;

/** A `Host` header URL keeps as it is: lower case, an explicit non-default port, no IPv4 or IDNA rewriting. */
export function isPlainHost(host: string): boolean {
  const colon = host.indexOf(':');
  const name = colon === -1 ? host : host.slice(0, colon);
  if (colon !== -1) {
    const port = host.slice(colon + 1);
    if (!/^[1-9]\d{0,4}$/.test(port) || Number(port) > 65_535 || port === '80' || port === '443')
      return false;
  }
  if (!hostName.test(name) || /(?:^|\.)xn--/.test(name)) return false;
  return dottedQuad.test(name) || !numericLabel.test(name.slice(name.lastIndexOf('.') + 1));
}

/** hono/request-id's rule: a client's id is kept when it is 1–255 word characters, `-` or `=`; else a new one. */
export function requestIdOf(incoming: string | undefined): string {
  return !incoming || incoming.length > 255 || /[^\w\-=]/.test(incoming) ? randomUUID() : incoming;
}
