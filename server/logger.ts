import { createRequire } from 'node:module';
import { type DestinationStream, type Logger, pino } from 'pino';
import type PinoPretty from 'pino-pretty';

/** `json` (one object a line, for log collectors; the default) or `pretty` (for a developer's terminal). */
export type LogFormat = 'json' | 'pretty';

/**
 * Secrets never reach the logs: authorization headers and token-like fields are redacted, in both
 * formats (pino redacts before the pretty printer sees the line).
 */
export function createLogger(level: string, format: LogFormat = 'json'): Logger {
  const options = {
    level,
    base: { service: 'credservice' },
    redact: {
      paths: [
        'req.headers.authorization',
        '*.token',
        '*.secret',
        '*.tx_code',
        '*.password',
        'token',
        'secret',
      ],
      censor: '[redacted]',
    },
  };
  return format === 'pretty' ? pino(options, prettyStream()) : pino(options);
}

/**
 * pino-pretty as a stream in this thread (not a transport worker), synchronous so that the last lines
 * before an exit are printed; loaded only when asked for, since production never needs it.
 */
function prettyStream(): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  return pretty({
    sync: true,
    colorize: Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
  });
}
