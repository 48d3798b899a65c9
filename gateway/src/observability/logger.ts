import { pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from '../config.js';

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
