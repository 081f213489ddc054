// The health of every stream this process's ingest handles, shared by the ingest (which
// writes it: a publish started, the encoder went away, the stream ended) and the API (which
// reads it for GET /v1/streams/{id}). It lives in memory in the process that runs the ingest;
// with many ingest machines the holder also shares each report beside its stream's lease, where
// other API processes read it (stream-health.ts).
//
// Warnings are logged once per onset: upkeep calls logOnsets() every few seconds, which warns
// for each warning a stream did not have at the previous call, never per message.
import type { Logger } from 'pino';
import { toIso, type Clock } from '../../shared/clock.ts';
import type { IngestHealth } from '../../streams/ingest-health.schemas.ts';
import { TRANSCODING_MESSAGES, type TranscodingDecision } from '../../transcode/transcoding-decision.ts';
import { recordPublish, recordTranscodingDecision } from '../../metrics/process-metrics.ts';
import {
  disconnectedWarning,
  mediaWarnings,
  realtimeReencodedWarning,
  type HealthWarning,
  type RealtimeReencodeReason,
} from './health-warnings.ts';
import type { Measurement, StreamMeter } from '../../rtmp/stream-meter.ts';

/** The bitrate a creator should stay under (kb/s) unless INGEST_BITRATE_LIMIT_KBPS says otherwise. */
export const DEFAULT_BITRATE_LIMIT_KBPS = 12_000;

export interface HealthBoardOptions {
  clock: Clock;
  bitrateLimitKbps?: number;
  /** The reconnect window, named in the disconnected warning. */
  reconnectWindowSeconds?: number;
}

interface StreamHealth {
  meter: StreamMeter;
  publishes: number;
  /** Set while the encoder is gone and the stream waits for it (epoch ms). */
  reconnectDeadline: number | undefined;
  /**
   * The encoder went away by stopping (it unpublished), not by dropping: nothing to fix, so
   * no publisher_disconnected warning while the stream waits out its short grace.
   */
  stopped: boolean;
  /** Warning codes logged and still present, so each onset is logged once. */
  logged: Set<string>;
}

export interface IngestSummary {
  publishing: number;
  reconnecting: number;
  /** The publishers' current bitrates added up. */
  bitrateKbps: number;
  /** Streams showing each warning now, by code. */
  warnings: Partial<Record<string, number>>;
}

export class IngestHealthBoard {
  private readonly streams = new Map<string, StreamHealth>();
  /** Why each realtime stream's WebRTC picture is re-encoded now (src/realtime/realtime.output.ts). */
  private readonly reencoded = new Map<string, RealtimeReencodeReason>();
  /** Each stream's latest ladder decision (src/transcode/live-ladder.ts). */
  private readonly decisions = new Map<string, TranscodingDecision>();
  private readonly clock: Clock;
  readonly bitrateLimitKbps: number;
  private readonly reconnectWindowSeconds: number;

  constructor(options: HealthBoardOptions) {
    this.clock = options.clock;
    this.bitrateLimitKbps = options.bitrateLimitKbps ?? DEFAULT_BITRATE_LIMIT_KBPS;
    this.reconnectWindowSeconds = options.reconnectWindowSeconds ?? 60;
  }

  /** An admitted publisher: its meter is the stream's from now on. */
  publishing(streamId: string, meter: StreamMeter): void {
    recordPublish();
    const entry = this.streams.get(streamId);
    if (entry) {
      entry.meter = meter;
      entry.publishes += 1;
      entry.reconnectDeadline = undefined;
      entry.stopped = false;
      // The disconnection is over, even if no tick saw it end: the next one is a new onset.
      entry.logged.delete('publisher_disconnected');
    } else {
      this.streams.set(streamId, {
        meter,
        publishes: 1,
        reconnectDeadline: undefined,
        stopped: false,
        logged: new Set(),
      });
    }
  }

  /** The encoder went away; the stream waits for it until `deadline` (epoch ms). */
  reconnecting(streamId: string, deadline: number): void {
    const entry = this.streams.get(streamId);
    if (!entry) return;
    entry.reconnectDeadline = deadline;
    entry.stopped = false;
  }

  /**
   * The encoder stopped on purpose (Stop Streaming); the stream ends at `deadline` (epoch ms)
   * unless it publishes again. Reported like a reconnect window (state `reconnecting`, the
   * deadline), so the API's shape is unchanged, but without the disconnected warning.
   */
  stopped(streamId: string, deadline: number): void {
    const entry = this.streams.get(streamId);
    if (!entry) return;
    entry.reconnectDeadline = deadline;
    entry.stopped = true;
  }

  /** The stream is no longer the ingest's (ended, or handed to the next start). */
  remove(streamId: string): void {
    this.streams.delete(streamId);
    this.decisions.delete(streamId);
    this.reencoded.delete(streamId);
  }

  /** A publish's ladder decision: the stream's from now on, until the next one. */
  transcoding(streamId: string, decision: TranscodingDecision): void {
    this.decisions.set(streamId, decision);
    recordTranscodingDecision(decision.renditions.length > 1 ? 'ladder' : 'copy_only');
  }

  /** A realtime publish's video choice: copied as sent, or re-encoded for a reason the creator can fix. */
  realtime(
    streamId: string,
    decision: { mode: 'copy' | 'encode'; reason: RealtimeReencodeReason | undefined },
  ): void {
    if (decision.mode === 'encode' && decision.reason !== undefined)
      this.reencoded.set(streamId, decision.reason);
    else this.reencoded.delete(streamId);
  }

  /** This process's publishes in all, for the metrics endpoint: no stream is named. */
  summary(): IngestSummary {
    const summary: IngestSummary = { publishing: 0, reconnecting: 0, bitrateKbps: 0, warnings: {} };
    for (const [streamId, entry] of this.streams) {
      const reconnecting = entry.reconnectDeadline !== undefined;
      const m = entry.meter.measure();
      if (reconnecting) summary.reconnecting += 1;
      else {
        summary.publishing += 1;
        summary.bitrateKbps += m.currentKbps ?? 0;
      }
      for (const warning of this.warningsOf(entry, m, this.reencoded.get(streamId))) {
        summary.warnings[warning.code] = (summary.warnings[warning.code] ?? 0) + 1;
      }
    }
    return summary;
  }

  /** What GET /v1/streams/{id} shows the creator; null when this process does not handle it. */
  report(streamId: string): IngestHealth | null {
    const entry = this.streams.get(streamId);
    if (!entry) return null;
    const m = entry.meter.measure();
    const reconnecting = entry.reconnectDeadline !== undefined;
    const video = m.video;
    const audio = m.audio;
    return {
      state: reconnecting ? 'reconnecting' : 'publishing',
      reconnect_deadline: toIso(entry.reconnectDeadline ?? null),
      measured_at: toIso(this.clock.now()),
      publishes: entry.publishes,
      video: video
        ? {
            codec: video.codec,
            profile: video.profile ?? null,
            level: video.level ?? null,
            width: video.width ?? null,
            height: video.height ?? null,
            frame_rate: reconnecting ? null : round(m.frameRate, 2),
            keyframe_interval_seconds: round(m.keyframeIntervalSeconds, 2),
          }
        : null,
      audio: audio
        ? {
            codec: audio.codec,
            profile: audio.profile ?? null,
            sample_rate: audio.sampleRate ?? null,
            channels: audio.channels ?? null,
          }
        : null,
      bitrate_kbps: {
        // Nothing arrives while the encoder is gone.
        current: reconnecting ? 0 : round(m.currentKbps, 0),
        average: round(m.averageKbps, 0),
      },
      dropped_data: { timestamp_gaps: m.timestampGaps, backward_jumps: m.backwardJumps },
      transcoding: this.transcodingOf(streamId),
      warnings: this.warningsOf(entry, m, this.reencoded.get(streamId)),
    };
  }

  private transcodingOf(streamId: string): IngestHealth['transcoding'] {
    const decision = this.decisions.get(streamId);
    if (!decision) return null;
    return {
      decision: decision.renditions.length > 1 ? 'ladder' : 'copy_only',
      renditions: decision.renditions,
      reason: decision.reason ?? null,
      message: decision.reason ? TRANSCODING_MESSAGES[decision.reason] : null,
      decided_at: toIso(decision.decidedAt),
    };
  }

  /** Logs each stream's warnings that began since the last call (upkeep's tick). */
  logOnsets(logger: Logger): void {
    for (const [streamId, entry] of this.streams) {
      const warnings = this.warningsOf(entry, undefined, this.reencoded.get(streamId));
      const now = new Set<string>();
      for (const warning of warnings) {
        now.add(warning.code);
        if (!entry.logged.has(warning.code)) {
          logger.warn({ streamId, code: warning.code, advice: warning.message }, 'ingest health warning');
        }
      }
      entry.logged = now;
    }
  }

  private warningsOf(
    entry: StreamHealth,
    measurement: Measurement | undefined,
    reencoded: RealtimeReencodeReason | undefined,
  ): HealthWarning[] {
    // While the encoder is gone, the last publish's figures say nothing about what comes next;
    // and one that stopped on purpose needs no advice.
    if (entry.stopped) return [];
    if (entry.reconnectDeadline !== undefined) return [disconnectedWarning(this.reconnectWindowSeconds)];
    const warnings = mediaWarnings(measurement ?? entry.meter.measure(), {
      bitrateLimitKbps: this.bitrateLimitKbps,
    });
    if (reencoded !== undefined) warnings.push(realtimeReencodedWarning(reencoded));
    return warnings;
  }
}

function round(value: number | undefined, digits: number): number | null {
  if (value === undefined) return null;
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
