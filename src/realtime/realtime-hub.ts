// This process's realtime side: the feeds of the realtime streams its ingest handles (one per
// stream, opened by RealtimeOutput when a publish starts) and the WebRTC viewers (WHEP
// sessions) watching them. It bounds what viewers may make it hold: at most `maxViewers`
// sessions in all (REALTIME_MAX_VIEWERS), at most a few still connecting per client address,
// and a session that does not connect within its timeout is closed. Past a bound the WHEP
// request is refused (the watch page then plays low-latency HLS), counted and logged.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError } from '../shared/errors.ts';
import { recordRealtimeRefusal, setRealtimeViewersSource } from '../metrics/process-metrics.ts';
import { RealtimeFeed } from './realtime-feed.ts';
import { ViewerSession, type ViewerNetwork } from './viewer-session.ts';
import { endWebRtc } from './webrtc-lifetime.ts';
import { OfferError, parseWhepOffer } from './whep-offer.ts';

/** WebRTC viewers one process serves unless REALTIME_MAX_VIEWERS says otherwise (docs/benchmarks.md). */
export const DEFAULT_MAX_VIEWERS = 200;
/** Sessions still connecting per client address: a flood of offers from one place is refused. */
const MAX_CONNECTING_PER_ADDRESS = 4;

const CONNECT_TIMEOUT_MS = 15_000;
/** How long a feed outlives its publish, so viewers stay connected across an encoder reconnect. */
const FEED_GRACE_MS = 60_000;

export type RefusalReason = 'capacity' | 'connecting_limit' | 'bad_offer' | 'not_here';

export interface RealtimeOptions {
  maxViewers?: number;
  network?: ViewerNetwork;
  connectTimeoutMs?: number;
  feedGraceMs?: number;
  /** Sessions one client address may have connecting at once (4 unless given). */
  maxConnectingPerAddress?: number;
}

export class RealtimeHub {
  readonly maxViewers: number;
  private readonly network: ViewerNetwork;
  private readonly connectTimeoutMs: number;
  private readonly feedGraceMs: number;
  private readonly maxConnectingPerAddress: number;
  private readonly feeds = new Map<string, RealtimeFeed>();
  private readonly graceTimers = new Map<string, NodeJS.Timeout>();
  private readonly sessions = new Map<string, ViewerSession>();
  private logger: Logger | undefined;

  constructor(options: RealtimeOptions = {}) {
    this.maxViewers = options.maxViewers ?? DEFAULT_MAX_VIEWERS;
    this.network = options.network ?? {};
    this.connectTimeoutMs = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    this.feedGraceMs = options.feedGraceMs ?? FEED_GRACE_MS;
    this.maxConnectingPerAddress = options.maxConnectingPerAddress ?? MAX_CONNECTING_PER_ADDRESS;
    setRealtimeViewersSource(() => this.sessions.size);
  }

  /** Where refusals are logged (the ingest's logger, once it starts). */
  useLogger(logger: Logger): void {
    this.logger = logger;
  }

  /** A realtime publish starts: the stream's feed (the one kept from a publish before, if any). */
  async attach(streamId: string): Promise<{ feed: RealtimeFeed; videoPort: number; audioPort: number }> {
    clearTimeout(this.graceTimers.get(streamId));
    this.graceTimers.delete(streamId);
    let feed = this.feeds.get(streamId);
    if (!feed) {
      feed = new RealtimeFeed(streamId);
      this.feeds.set(streamId, feed);
    }
    const ports = await feed.open();
    feed.publishing = true;
    feed.restarted();
    return { feed, ...ports };
  }

  /** The publish ended: the feed waits `feedGraceMs` for the next one, then closes with its viewers. */
  detach(streamId: string, feed: RealtimeFeed): void {
    if (this.feeds.get(streamId) !== feed) return;
    feed.publishing = false;
    const timer = setTimeout(() => {
      this.graceTimers.delete(streamId);
      if (this.feeds.get(streamId) === feed && !feed.publishing) {
        this.feeds.delete(streamId);
        feed.close();
      }
    }, this.feedGraceMs);
    timer.unref();
    this.graceTimers.set(streamId, timer);
  }

  /** Whether this process sends the stream's realtime media now. */
  serves(streamId: string): boolean {
    return this.feeds.get(streamId)?.publishing === true;
  }

  get viewerCount(): number {
    return this.sessions.size;
  }

  viewersOf(streamId: string): number {
    return this.feeds.get(streamId)?.viewers.size ?? 0;
  }

  /** A WHEP offer for a live realtime stream this process serves: the session and its answer. */
  async play(streamId: string, sdp: string, address: string): Promise<{ sessionId: string; answer: string }> {
    const feed = this.feeds.get(streamId);
    if (!feed?.publishing) {
      throw this.refuse(
        'not_here',
        streamId,
        new AppError(
          'realtime_unavailable',
          'This stream is not sent over WebRTC by this server right now; play its HLS playback_url.',
        ),
      );
    }
    let offer;
    try {
      offer = parseWhepOffer(sdp, feed.profile);
    } catch (error) {
      if (error instanceof OfferError)
        throw this.refuse('bad_offer', streamId, new AppError('invalid_sdp', error.message));
      throw error;
    }
    if (this.sessions.size >= this.maxViewers) {
      const refusal = new AppError(
        'realtime_capacity',
        `This server already sends WebRTC to its ${this.maxViewers} viewers; play the stream's HLS playback_url.`,
      );
      refusal.retryAfterSeconds = 30;
      throw this.refuse('capacity', streamId, refusal);
    }
    let connecting = 0;
    for (const session of this.sessions.values())
      if (session.address === address && session.state === 'connecting') connecting++;
    if (connecting >= this.maxConnectingPerAddress) {
      const refusal = new AppError(
        'rate_limit_exceeded',
        `Too many WebRTC sessions from this address are still connecting (at most ${this.maxConnectingPerAddress}).`,
      );
      refusal.retryAfterSeconds = Math.ceil(this.connectTimeoutMs / 1000);
      throw this.refuse('connecting_limit', streamId, refusal);
    }
    const id = `whep_${randomBytes(12).toString('base64url')}`;
    const session = new ViewerSession({
      id,
      streamId,
      address,
      offer,
      network: this.network,
      connectTimeoutMs: this.connectTimeoutMs,
      onClose: (closed) => {
        this.sessions.delete(closed.id);
        feed.viewers.delete(closed);
      },
    });
    this.sessions.set(id, session);
    feed.viewers.add(session);
    try {
      return { sessionId: id, answer: await session.answer(sdp) };
    } catch (error) {
      session.close();
      throw this.refuse(
        'bad_offer',
        streamId,
        new AppError(
          'invalid_sdp',
          `The offer could not be answered: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    }
  }

  /** DELETE of a session's Location: it ends (the stream's id must match). */
  end(streamId: string, sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session || session.streamId !== streamId)
      throw new AppError('resource_not_found', `No WebRTC session '${sessionId}' exists.`, 'session_id');
    session.close();
  }

  close(): void {
    for (const timer of this.graceTimers.values()) clearTimeout(timer);
    this.graceTimers.clear();
    for (const feed of this.feeds.values()) feed.close();
    this.feeds.clear();
    endWebRtc(this.logger);
  }

  private refuse(reason: RefusalReason, streamId: string, error: AppError): AppError {
    recordRealtimeRefusal(reason);
    this.logger?.info(
      { streamId, reason, viewers: this.sessions.size, maxViewers: this.maxViewers },
      `WebRTC playback refused: ${error.message}`,
    );
    return error;
  }
}
