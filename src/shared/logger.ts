import pino, { type Logger } from 'pino';
import type { LogLevel } from '../config.ts';
import { toIso } from './clock.ts';

/**
 * Structured JSON logs. Nothing the service logs carries a key or secret, and these paths are
 * redacted in case a future log line does. (Named paths, not wildcards: wildcard redaction
 * costs a walk of every logged object, and the service logs one line per request.)
 */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  const stream = destination ?? new BatchedDestination(pino.destination({ fd: 1, sync: true }));
  const logger = pino(
    {
      level,
      base: BASE,
      timestamp,
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
    stream,
  );
  // A stream that wants each line's level and object (pino.multistream) gets them from pino.
  if (!(pino.symbols.needsMetadataGsym in stream)) accessStreams.set(logger, stream);
  return logger;
}

const BASE = { service: 'tributary' };
// pino's isoTime makes a Date per line: a third of the cost of a request's log line.
const timestamp = () => `,"time":"${toIso(Date.now())}"`;

/** What the access line of one request says. */
export interface AccessFields {
  reqId: string;
  method: string;
  url: string;
  status: number;
  ms: number;
  key: string | undefined;
}

export type AccessLog = (fields: AccessFields) => void;

/** The loggers createLogger made, and where each writes. */
const accessStreams = new WeakMap<object, pino.DestinationStream>();

const ACCESS_KEYS = ['reqId', 'method', 'url', 'status', 'ms', 'key', 'msg'];

/**
 * The access line's writer for `logger`. For a logger made by createLogger, or a child of one
 * that adds no bindings and no serializer of these fields (Fastify's `app.log` is such a
 * child), it writes the line pino would write (the same fields in the same order, strings
 * escaped by JSON.stringify as pino's are), formatted in one template: the service writes one
 * per request, and pino's general formatting (walking the object, its redaction and
 * serializer lookups per key) cost about twice as much. test/unit/access-line.test.ts
 * compares the two lines. Any other logger gets `info(fields, 'request')`.
 */
export function accessLogFor(logger: object & { info: (fields: object, msg: string) => void }): AccessLog {
  let root: object | null = logger;
  while (root !== null && !accessStreams.has(root)) root = Object.getPrototypeOf(root) as object | null;
  const stream = root === null ? undefined : accessStreams.get(root);
  const { chindingsSym, serializersSym } = pino.symbols;
  const pinoLogger = logger as unknown as Logger & Record<symbol, unknown>;
  const serializers = (pinoLogger[serializersSym] ?? {}) as Record<string, unknown>;
  if (
    root === null ||
    stream === undefined ||
    pinoLogger[chindingsSym] !== (root as Record<symbol, unknown>)[chindingsSym] ||
    ACCESS_KEYS.some((key) => serializers[key] !== undefined)
  ) {
    return (fields) => {
      logger.info(fields, 'request');
    };
  }
  return accessWriter(pinoLogger, stream);
}

/** Writes to `stream` what `logger.info(fields, 'request')` would, at `logger`'s level. */
function accessWriter(logger: Logger, stream: pino.DestinationStream): AccessLog {
  const level = logger.levels.values.info;
  const base = Object.entries(BASE)
    .map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`)
    .join('');
  return ({ reqId, method, url, status, ms, key }) => {
    if (!logger.isLevelEnabled('info')) return;
    stream.write(
      `{"level":${level}${timestamp()}${base},"reqId":${JSON.stringify(reqId)},"method":${JSON.stringify(method)},` +
        `"url":${JSON.stringify(url)},"status":${status},"ms":${Number.isFinite(ms) ? ms : null}` +
        `${key === undefined ? '' : `,"key":${JSON.stringify(key)}`},"msg":"request"}\n`,
    );
  };
}

/** When a BatchedDestination writes what it holds (the first limit reached). */
export interface BatchLimits {
  /** The longest a line waits, in milliseconds. */
  maxDelayMs: number;
  /** Writes as soon as this many characters wait. */
  maxChars: number;
}

const BATCH_DEFAULTS: BatchLimits = { maxDelayMs: 25, maxChars: 32 * 1024 };

// pino writes the level first: `{"level":50` is an error, 60 fatal.
const URGENT_LINE = /^\{"level":[56]\d[,}]/;

/**
 * Collects log lines and writes them together with one synchronous write: 25 ms after the first
 * of them, when 32 KiB wait, at once for an error or fatal line (with the lines before it, in
 * order), on `flush`, and when the process exits. The service logs a line per request: written
 * at the end of each turn of the event loop (a write and a setImmediate for every turn, about one
 * for every request under load) the access line was a tenth of a small request's cost; batched
 * by time it is a few writes a second. (pino's asynchronous destination hands small writes to
 * libuv's thread pool and measures its whole pending buffer on every line, which costs more.)
 * What this trades: a process killed outright (SIGKILL, a native crash) loses the info lines of
 * its last 25 ms; an exit, even from an uncaught exception, loses none. A stdout that cannot
 * keep up slows the service down (sonic-boom retries a full pipe) rather than growing an
 * unbounded buffer.
 */
export class BatchedDestination implements pino.DestinationStream {
  private pending: string[] = [];
  private chars = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly target: pino.DestinationStream;
  private readonly limits: BatchLimits;
  private readonly writePending = () => {
    this.flushSync();
  };

  /** `target` must write synchronously (sonic-boom with `sync: true`). */
  constructor(target: pino.DestinationStream, limits: Partial<BatchLimits> = {}) {
    this.target = target;
    this.limits = { ...BATCH_DEFAULTS, ...limits };
  }

  write(line: string): void {
    this.pending.push(line);
    this.chars += line.length;
    if (this.chars >= this.limits.maxChars || URGENT_LINE.test(line)) {
      this.flushSync();
      return;
    }
    if (this.timer === undefined) {
      awaitingWrite.add(this);
      // Unreferenced: the exit hook below writes what a process leaves pending.
      this.timer = setTimeout(this.writePending, this.limits.maxDelayMs).unref();
    }
  }

  /** Writes every pending line now (pino's `logger.flush()` and the exit hook call this). */
  flushSync(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending.length === 0) return;
    const lines = this.pending.join('');
    this.pending = [];
    this.chars = 0;
    awaitingWrite.delete(this);
    this.target.write(lines);
  }

  flush(callback?: (error?: Error) => void): void {
    this.flushSync();
    callback?.();
  }
}

// One exit hook for every destination: lines still waiting when the process exits (say,
// process.exit after a fatal error) are written.
const awaitingWrite = new Set<BatchedDestination>();
process.on('exit', () => {
  for (const destination of awaitingWrite) destination.flushSync();
});
