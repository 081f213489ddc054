import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.ts';
import { toIso } from './shared/clock.ts';

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
      // pino's isoTime makes a Date per line: a third of the cost of a request's log line.
      timestamp: () => `,"time":"${toIso(Date.now())}"`,
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
    destination ?? new TurnBatchedDestination(pino.destination({ fd: 1, sync: true })),
  );
}

/**
 * Collects the lines logged during one turn of the event loop and writes them with one
 * synchronous write at the end of the turn. The service logs a line per request, and handing
 * each line (or each few) to libuv's thread pool cost more than formatting it; one write per
 * turn costs a fraction of that and keeps the lines in order. (sonic-boom's own buffering
 * measures the whole pending buffer on every line, which grows with the load.) Nothing waits:
 * a line reaches the file within the turn that logged it, and the last turn's lines are
 * written before the process exits. A stdout that cannot keep up slows the service down
 * (sonic-boom retries a full pipe) rather than growing an unbounded buffer.
 */
export class TurnBatchedDestination implements pino.DestinationStream {
  private pending: string[] = [];
  private readonly target: pino.DestinationStream;
  private readonly writePending = () => {
    this.flushSync();
  };

  /** `target` must write synchronously (sonic-boom with `sync: true`). */
  constructor(target: pino.DestinationStream) {
    this.target = target;
  }

  write(line: string): void {
    if (this.pending.push(line) === 1) {
      awaitingWrite.add(this);
      setImmediate(this.writePending);
    }
  }

  /** Writes every pending line now (pino's `logger.flush()` and the exit hook call this). */
  flushSync(): void {
    if (this.pending.length === 0) return;
    const lines = this.pending.join('');
    this.pending = [];
    awaitingWrite.delete(this);
    this.target.write(lines);
  }

  flush(callback?: (error?: Error) => void): void {
    this.flushSync();
    callback?.();
  }
}

// One exit hook for every destination: lines of the turn in which the process exits (say,
// process.exit after a fatal error) are still written.
const awaitingWrite = new Set<TurnBatchedDestination>();
process.on('exit', () => {
  for (const destination of awaitingWrite) destination.flushSync();
});
