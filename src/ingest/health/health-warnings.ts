// What a creator should change, judged from one publish's measurement. Each warning has a
// stable code (for dashboards) and a plain-language message that names the setting to change
// in the encoder (OBS's names, which most streaming software shares).
import type { Measurement } from '../../rtmp/stream-meter.ts';

export type HealthWarningCode =
  | 'keyframe_interval_too_long'
  | 'bitrate_too_high'
  | 'bitrate_unstable'
  | 'no_audio'
  | 'frame_rate_unstable'
  | 'publisher_disconnected'
  | 'realtime_reencoded';

export interface HealthWarning {
  code: HealthWarningCode;
  message: string;
}

/** Keyframes further apart than this make viewers wait that long to start and lag behind. */
export const MAX_KEYFRAME_INTERVAL_SECONDS = 4;
/** "Far above" the limit: the current bitrate over this multiple of it. */
export const BITRATE_OVER_LIMIT_FACTOR = 1.25;
/** 5-second bitrates whose highest is over this multiple of their lowest swing widely. */
const BITRATE_SWING_FACTOR = 3;
/** 5-second windows needed before a swing is judged (about 15 s of media). */
const BITRATE_SWING_MIN_WINDOWS = 10;
/** Seconds of video with no audio at all before "no audio" is said. */
const NO_AUDIO_AFTER_SECONDS = 5;
/** Per-second frame counts varying by more than this share of the highest are unstable. */
const FRAME_RATE_SPREAD = 0.25;
const FRAME_RATE_MIN_SECONDS = 5;

export interface WarningLimits {
  bitrateLimitKbps: number;
}

export function mediaWarnings(m: Measurement, limits: WarningLimits): HealthWarning[] {
  const warnings: HealthWarning[] = [];
  const hasVideo = m.videoFrames > 0;
  const keyframeSeconds = Math.max(m.keyframeIntervalSeconds ?? 0, m.secondsSinceKeyframe ?? 0);
  if (hasVideo && keyframeSeconds > MAX_KEYFRAME_INTERVAL_SECONDS) {
    warnings.push({
      code: 'keyframe_interval_too_long',
      message: `Keyframes arrive every ${keyframeSeconds.toFixed(1)} s; more than ${MAX_KEYFRAME_INTERVAL_SECONDS} s makes viewers wait longer to start watching and fall further behind live. In OBS, set Settings > Output > Keyframe Interval to 2 s (not 0/auto).`,
    });
  }
  const limit = limits.bitrateLimitKbps;
  if (m.currentKbps !== undefined && m.currentKbps > limit * BITRATE_OVER_LIMIT_FACTOR) {
    warnings.push({
      code: 'bitrate_too_high',
      message: `The stream arrives at ${formatMbps(m.currentKbps)}, far above this service's limit of ${formatMbps(limit)}; many viewers cannot play it smoothly. In OBS, lower Settings > Output > Video Bitrate to at most ${Math.floor(limit)} Kbps (6000 Kbps is plenty for 1080p30).`,
    });
  }
  if (m.windowKbps.length >= BITRATE_SWING_MIN_WINDOWS) {
    const low = Math.min(...m.windowKbps);
    const high = Math.max(...m.windowKbps);
    if (high > BITRATE_SWING_FACTOR * Math.max(low, 1)) {
      warnings.push({
        code: 'bitrate_unstable',
        message: `The bitrate swings between ${formatMbps(low)} and ${formatMbps(high)}; viewers' players keep switching or pause to buffer. In OBS, set Settings > Output > Rate Control to CBR; if it already is, the upload connection is struggling: lower the Video Bitrate or use a wired connection.`,
      });
    }
  }
  if (hasVideo && m.audioMessages === 0 && m.seconds >= NO_AUDIO_AFTER_SECONDS) {
    warnings.push({
      code: 'no_audio',
      message:
        'The stream has no audio track, so viewers hear nothing. In OBS, check that an audio source (Desktop Audio or a microphone) is enabled and not muted in the Audio Mixer, and that Settings > Output > Audio Track 1 is selected.',
    });
  }
  if (m.framesPerSecond.length >= FRAME_RATE_MIN_SECONDS) {
    const low = Math.min(...m.framesPerSecond);
    const high = Math.max(...m.framesPerSecond);
    if (high - low > FRAME_RATE_SPREAD * high) {
      warnings.push({
        code: 'frame_rate_unstable',
        message: `The frame rate varies between ${low} and ${high} frames per second; the encoder is dropping frames, so motion stutters. In OBS, lower the load: choose a faster encoder preset or a hardware encoder (NVENC, QuickSync, AMF) in Settings > Output, or lower Settings > Video > Output Resolution or FPS.`,
      });
    }
  }
  return warnings;
}

export function disconnectedWarning(reconnectSeconds: number): HealthWarning {
  return {
    code: 'publisher_disconnected',
    message: `The encoder disconnected. The stream stays live for up to ${reconnectSeconds} s waiting for it to reconnect, then ends. Check the computer's internet connection and press Start Streaming again in OBS (enable Settings > Advanced > Automatically Reconnect).`,
  };
}

function formatMbps(kbps: number): string {
  return `${(kbps / 1000).toFixed(1)} Mb/s`;
}

/** Why a realtime stream's WebRTC picture is re-encoded (src/realtime/realtime.output.ts). */
export type RealtimeReencodeReason = 'b_frames' | 'profile' | 'codec';

const REENCODE_CAUSES: Record<RealtimeReencodeReason, string> = {
  b_frames: 'The encoder sends B-frames, which WebRTC players cannot take',
  profile: 'The encoder sends an H.264 profile WebRTC players do not take (High 10, 4:2:2 or 4:4:4)',
  codec: 'The encoder sends a video codec other than H.264',
};

/** A realtime stream whose picture the server re-encodes for WebRTC, and how to avoid it. */
export function realtimeReencodedWarning(reason: RealtimeReencodeReason): HealthWarning {
  return {
    code: 'realtime_reencoded',
    message: `${REENCODE_CAUSES[reason]}, so the server re-encodes the realtime (WebRTC) picture: a little more delay and lower quality. In OBS (Settings > Output, Output Mode: Advanced), with x264 enter "bframes=0" in x264 Options and choose Profile "high" or "main"; with NVENC, QuickSync or AMF set Max B-frames to 0; keep the color format NV12 (8-bit 4:2:0). Keep the Keyframe Interval at 1 s.`,
  };
}
