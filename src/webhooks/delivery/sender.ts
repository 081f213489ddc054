// Sends one signed delivery over one shared HTTP client: keep-alive connections, a hard limit
// on the whole exchange (connect, TLS, headers, body), no redirects, and the dialled address
// checked where the socket is opened.
import net from 'node:net';
import { Agent } from 'undici';
import { hostOf, isPublicAddress, publicOnlyLookup, type Resolver } from '../url-safety.ts';

/** How much of a response body is kept on the attempt row. */
export const EXCERPT_BYTES = 1024;
/** Bodies past this are not read further; the connection is dropped instead. */
const MAX_BODY_BYTES = 64 * 1024;

export interface OutgoingDelivery {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
  /**
   * The attempt's own: aborted when the webhook is deleted, and here at the time limit (one
   * controller and one timer per attempt, no composed signal: this runs thousands of times a
   * second).
   */
  controller: AbortController;
}

/** The reason the sender aborts an attempt with at its time limit. */
const TIME_LIMIT = Symbol('time limit');

export type SendOutcome =
  | {
      kind: 'answered';
      statusCode: number;
      retryAfter: string | undefined;
      excerpt: string;
      latencyMs: number;
    }
  | { kind: 'failed'; error: string; latencyMs: number }
  | { kind: 'aborted'; latencyMs: number };

export interface SenderOptions {
  timeoutMs: number;
  allowPrivateTargets: boolean;
  /**
   * Tests only: trust this CA instead of Node's store. Left unset, Node's default store plus
   * NODE_EXTRA_CA_CERTS apply (setting `ca` would replace both).
   */
  ca?: string | Buffer | undefined;
  /** Tests only: resolve names with this instead of the system resolver; answers are still checked. */
  resolve?: Resolver | undefined;
}

export class WebhookSender {
  private readonly agent: Agent;
  private readonly options: SenderOptions;

  constructor(options: SenderOptions) {
    this.options = options;
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: {
        timeout: options.timeoutMs,
        ...(options.allowPrivateTargets ? {} : { lookup: publicOnlyLookup(options.resolve) }),
        ...(options.ca === undefined ? {} : { ca: options.ca }),
      },
    });
  }

  async send(delivery: OutgoingDelivery): Promise<SendOutcome> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const url = new URL(delivery.url);
    // A literal IP is dialled without a lookup, so the connect-time check cannot see it.
    const host = hostOf(url);
    if (!this.options.allowPrivateTargets && net.isIP(host) !== 0 && !isPublicAddress(host)) {
      return { kind: 'failed', error: `refused: ${host} is not a public address`, latencyMs: 0 };
    }
    const { controller } = delivery;
    const timer = setTimeout(() => {
      controller.abort(TIME_LIMIT);
    }, this.options.timeoutMs);
    try {
      const response = await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        signal: controller.signal,
      });
      const excerpt = await readExcerpt(response.body);
      const retryAfter = response.headers['retry-after'];
      return {
        kind: 'answered',
        statusCode: response.statusCode,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
        excerpt,
        latencyMs: latency(),
      };
    } catch (error) {
      const timedOut = controller.signal.reason === TIME_LIMIT;
      if (controller.signal.aborted && !timedOut) return { kind: 'aborted', latencyMs: latency() };
      // undici's own header, body and connect timers carry the same limit and can fire a moment
      // before the deadline's; either way the receiver missed the limit, and says so the same way.
      if (timedOut || isUndiciTimeout(error)) {
        return {
          kind: 'failed',
          error: `timeout: no complete answer within ${this.options.timeoutMs} ms`,
          latencyMs: latency(),
        };
      }
      return { kind: 'failed', error: describeError(error), latencyMs: latency() };
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (keptBytes < EXCERPT_BYTES) {
      kept.push(chunk.subarray(0, EXCERPT_BYTES - keptBytes));
      keptBytes += Math.min(chunk.length, EXCERPT_BYTES - keptBytes);
    }
    if (total > MAX_BODY_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(kept).toString('utf8');
}

const UNDICI_TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function isUndiciTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return [codeOf(error), codeOf(error.cause)].some((code) => UNDICI_TIMEOUT_CODES.has(code ?? ''));
}

/** A short, secret-free description of a transport error, for the attempt row and the logs. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return 'request failed';
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const message = (cause ?? error).message;
  return [codeOf(cause) ?? codeOf(error), message].filter(Boolean).join(': ').slice(0, 300);
}

/** The system or undici error code an error carries (ECONNREFUSED, UND_ERR_...). */
function codeOf(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}
