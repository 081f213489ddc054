// WHIP ingest (RFC 9725): a publisher POSTs its SDP offer with the stream key as its bearer
// token, and is admitted exactly as an RTMP encoder is (src/ingest/admission.ts: keys, stream
// states, a second publisher, suspensions, leases), then answered. Its session is a resource
// (Location) whose DELETE ends the publish. A refusal is an AppError whose code says which of
// admission's reasons it was. The ingest starts after the HTTP listener (src/server.ts): until
// it is attached, and when it is off, offers are refused with 503.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import { INGEST_APP } from '../ingest/admission.ts';
import type { Publisher, Refusal } from '../rtmp/publisher.ts';
import { AppError, serviceUnavailable } from '../shared/errors.ts';
import type { Clock } from '../shared/clock.ts';
import { acceptOffer, OfferError } from './sdp-offer.ts';
import { WhipPublisher } from './whip-publisher.ts';

/** Admission answers in milliseconds; one that takes longer than this is refused. */
const ADMISSION_TIMEOUT_MS = 10_000;

export interface WhipIngestOptions {
  clock: Clock;
  bindAddress?: string | undefined;
  portRange?: { begin: number; end: number } | undefined;
}

/** What the running ingest gives WHIP with its door (src/ingest/ingest.ts). */
export interface WhipDoorSettings {
  logger: Logger;
  ffmpegPath: string;
  /** WHIP sessions at once (answered or being answered); more are refused with 503. */
  maxSessions: number;
}

/** The running ingest's door for publishers (src/ingest/ingest.ts's `publish`). */
export type PublishDoor = (publisher: Publisher) => void;

interface Session {
  publisher: WhipPublisher;
  token: string;
}

export interface WhipAnswer {
  id: string;
  sdp: string;
}

export class WhipIngest {
  private readonly options: WhipIngestOptions;
  private readonly sessions = new Map<string, Session>();
  private door: PublishDoor | undefined;
  private settings: WhipDoorSettings | undefined;
  private offMessage = 'Live ingest is starting. Try again in a few seconds.';
  private opening = 0;

  constructor(options: WhipIngestOptions) {
    this.options = options;
  }

  /** The ingest is running: publishers go through `door` from now on. */
  attach(door: PublishDoor, settings: WhipDoorSettings): void {
    this.door = door;
    this.settings = { ...settings, logger: settings.logger.child({ component: 'whip' }) };
  }

  /** The ingest is off (no ffmpeg, --no-ingest): offers are refused saying why. */
  off(reason: string): void {
    this.door = undefined;
    this.offMessage = `Live ingest is off on this server (${reason}).`;
  }

  /** Sessions open now. */
  get size(): number {
    return this.sessions.size;
  }

  /** Answers an offer, or throws the AppError the publisher gets. */
  async offer(input: { sdp: string; token: string; remoteAddress: string }): Promise<WhipAnswer> {
    const { door, settings } = this;
    if (!door || !settings) throw serviceUnavailable(this.offMessage, 10);
    if (this.sessions.size + this.opening >= settings.maxSessions) {
      throw serviceUnavailable('The server is at its limit of WHIP sessions. Try again in a minute.', 60);
    }
    let offer;
    try {
      offer = acceptOffer(input.sdp);
    } catch (error) {
      if (error instanceof OfferError) throw new AppError('invalid_sdp', error.message);
      throw error;
    }
    this.opening += 1;
    try {
      const id = randomBytes(18).toString('base64url');
      const publisher = new WhipPublisher({
        streamKey: input.token,
        remoteAddress: input.remoteAddress,
        app: INGEST_APP,
        clock: this.options.clock,
        logger: settings.logger.child({ whipSession: id.slice(0, 6) }),
        ffmpegPath: settings.ffmpegPath,
        bindAddress: this.options.bindAddress,
        portRange: this.options.portRange,
      });
      door(publisher);
      let timer: NodeJS.Timeout | undefined;
      const decision = await Promise.race([
        publisher.decision,
        new Promise<undefined>((resolve) => {
          timer = setTimeout(() => {
            resolve(undefined);
          }, ADMISSION_TIMEOUT_MS);
        }),
      ]);
      clearTimeout(timer);
      if (!decision) {
        publisher.reject(
          'The server could not admit the stream in time. Try again.',
          undefined,
          'admission_too_slow',
        );
        throw serviceUnavailable('The server could not admit the stream in time. Try again.', 5);
      }
      if (!decision.admitted) throw refusalError(decision.refusal);
      this.sessions.set(id, { publisher, token: input.token });
      void publisher.finished.then(() => {
        this.sessions.delete(id);
      });
      try {
        return { id, sdp: await publisher.answer(offer) };
      } catch (error) {
        settings.logger.warn({ err: error }, 'whip offer admitted but not answered');
        publisher.disconnect();
        throw new AppError('invalid_sdp', 'The SDP offer could not be answered.');
      }
    } finally {
      this.opening -= 1;
    }
  }

  /** The publisher's DELETE of its session: a clean stop. */
  async end(id: string, token: string | undefined): Promise<void> {
    const session = this.sessions.get(id);
    if (!session)
      throw new AppError('resource_not_found', 'No such WHIP session (it has ended, or never was).');
    if (token === undefined || !sameToken(token, session.token)) {
      throw new AppError('invalid_stream_key', 'End a WHIP session with the stream key it was started with.');
    }
    this.sessions.delete(id);
    await session.publisher.stop();
  }

  /** Asks a session's publisher for a keyframe (rate-limited); false for an unknown session. */
  requestKeyframe(id: string): boolean {
    return this.sessions.get(id)?.publisher.requestKeyframe() ?? false;
  }

  /**
   * Shutdown: every session ends at once (the ingest adopts their streams at the next start).
   * node-datachannel's cleanup comes after, from the realtime hub's close (webrtc-lifetime.ts).
   */
  async close(): Promise<void> {
    this.door = undefined;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    for (const session of all) session.publisher.disconnect();
    await Promise.all(all.map((session) => session.publisher.finished));
  }
}

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Admission's refusal (src/ingest/admission.ts reasons) as the HTTP error a WHIP client gets. */
export function refusalError(refusal: Refusal): AppError {
  const { reason, description } = refusal;
  switch (reason) {
    case 'unknown_key':
      return new AppError('invalid_stream_key', description);
    case 'already_publishing':
      return new AppError('already_publishing', description);
    case 'stream_ended':
      return new AppError('stream_ended', description);
    case 'withheld':
      return new AppError('publish_withheld', description);
    case 'email_unverified':
      return new AppError('email_unverified', description);
    case 'too_many_unknown_keys': {
      const error = new AppError('rate_limit_exceeded', description);
      error.retryAfterSeconds = Number(/(\d+) s/.exec(description)?.[1] ?? 60);
      return error;
    }
    case 'shutting_down':
      return serviceUnavailable(description, 60);
    default:
      return serviceUnavailable(description, 5);
  }
}
