import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.ts';

/**
 * Structured JSON logs. Nothing the service logs carries a key or secret, and these paths are
 * redacted in case a future log line does. (Named paths, not wildcards: wildcard redaction
 * costs a walk of every logged object, and the service logs one line per request.)
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'tributary' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'authorization',
          'headers.authorization',
          'req.headers.authorization',
          'secret',
          'stream_key',
          'ingest.stream_key',
        ],
        censor: '[redacted]',
      },
    },
    // Asynchronous writes, but no minimum batch: a quiet service must not hold a line back
    // from an operator tailing the log.
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
