import { type Logger, pino } from 'pino';

/** JSON logs. Secrets never reach them: authorization headers and token-like fields are redacted. */
export function createLogger(level: string): Logger {
  return pino({
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
  });
}
