// Fastify gives every request its own child logger, bound to the request id. Making a pino
// child costs a share of a small request's time even when nothing logs through it, and almost
// no request does: the access line is written once, on the root logger, with the id as a
// field. So the child is made the first time something logs through `request.log`.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, LevelWithSilentOrString, LogFn } from 'pino';

const LOG_METHODS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

class DeferredChildLogger implements FastifyBaseLogger {
  // Defined once on the prototype below: per-instance closures would cost what this saves.
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;

  private made: FastifyBaseLogger | undefined;
  private readonly parent: FastifyBaseLogger;
  private readonly bindings: Bindings;
  private readonly options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.parent = parent;
    this.bindings = bindings;
    this.options = options;
  }

  /** The real child logger, made on first use. */
  resolve(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): LevelWithSilentOrString {
    // A route's own `logLevel` arrives as the child's level option.
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.resolve().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.resolve().child(bindings, options);
  }
}

for (const method of LOG_METHODS) {
  Object.defineProperty(DeferredChildLogger.prototype, method, {
    // Forwards the caller's arguments unchanged: pino reads how many it was given.
    value: function (this: DeferredChildLogger, ...args: unknown[]): void {
      this.resolve()[method](...(args as Parameters<LogFn>));
    },
  });
}

/** Fastify's `childLoggerFactory`: a request's logger that becomes a pino child on first use. */
export function deferredChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new DeferredChildLogger(parent, bindings, options);
}
