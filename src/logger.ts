import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.ts';

/**
 * Structured JSON logs. Nothing the service logs carries a key or secret, and these paths are
 * redacted in case a future log line does.
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'tributary' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['*.authorization', '*.headers.authorization', '*.secret', '*.stream_key', '*.key'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
