// The ladder decision for one live publish, made when the publisher's sequence header says how
// large the picture is: the rungs below the source (a ladder stream's later publishes: only the
// rungs its first publish made), if the CPU budget admits them; otherwise copy-only. The first
// publish's decision fixes the stream's shape (stream-ladder.ts). Every decision is logged
// with the figures it was made on, and told to the creator (`ingest.health.transcoding`).
import type { Logger } from 'pino';
import type { Clock } from '../shared/clock.ts';
import type { TranscodingReason } from '../streams/ingest-health.schemas.ts';
import type { HlsSegment } from '../hls/hls-playlist.ts';
import type { StreamMeter } from '../rtmp/stream-meter.ts';
import type { TranscodingDecision } from '../transcode/transcoding-decision.ts';
import type { PackagerLadder, PackagerPlan } from './hls-packager.ts';
import { StreamFolder } from './stream-folder.ts';
import type { LiveStream } from './live-stream.ts';
import type { AdmissionFigures, TranscodeBudget } from '../transcode/budget.ts';
import {
  encodedMegapixelsPerSecond,
  planLadder,
  SOURCE_RENDITION,
  transcodes,
  type LadderPlan,
  type TranscodeConfig,
} from '../transcode/ladder.ts';
import { StreamLadder } from '../transcode/stream-ladder.ts';

/** Tags to wait for the audio and video sequence headers before deciding without them. */
const TAGS_BEFORE_DECIDING = 48;
/** The frame rate assumed for pricing until the meter has measured one. */
const ASSUMED_FRAME_RATE = 30;

export interface LiveLadderDeps {
  config: TranscodeConfig;
  budget: TranscodeBudget;
  state: LiveStream;
  index: number;
  meter: StreamMeter;
  logger: Logger;
  /** The stream's segment lists grew (called on the stream's queue). */
  changed: () => void;
  /** The transcoder fell behind: the publish should go on with fewer rungs (`plan` is today's). */
  behind: (plan: PackagerPlan) => void;
  /**
   * A packager taking over mid-publish with its plan made already: fewer rungs after the
   * transcoder fell behind, or the whole ladder once CPU room appeared for a publish that had
   * none when it started (reason undefined).
   */
  forced?: { plan: PackagerPlan; reason: TranscodingReason | undefined } | undefined;
  /** Told each decision, for the creator (`ingest.health.transcoding`). */
  decided: (decision: TranscodingDecision) => void;
  clock: Clock;
}

/** Media seconds a transcoder may fall behind the publisher before rungs are dropped. */
export const MAX_LAG_SECONDS = 4;

export function liveLadder(deps: LiveLadderDeps): PackagerLadder {
  const { state, index, logger } = deps;
  let tags = 0;
  let chosen: PackagerPlan | undefined;
  return {
    preset: deps.config.preset,
    maxLagSeconds: deps.config.maxLagSeconds ?? MAX_LAG_SECONDS,
    onBehind: () => {
      if (chosen) deps.behind(chosen);
    },
    choose: (final) => {
      if (deps.forced) {
        chosen = deps.forced.plan;
        for (const rendition of chosen.plan.renditions) {
          if (!rendition.copy) state.ladder?.expect(rendition.name, index);
        }
        report(deps, chosen, deps.forced.reason);
        return chosen;
      }
      tags++;
      const measured = deps.meter.measure();
      const video = measured.video;
      const waiting = video?.height === undefined || measured.audio === undefined;
      if (waiting && !final && tags < TAGS_BEFORE_DECIDING) return undefined;
      const {
        plan: decided,
        reason,
        wanted,
      } = decide(deps, video?.width, video?.height, measured.audio !== undefined, measured.frameRate);
      if (state.layout === 'undecided') {
        // Rungs refused for want of CPU still make this a ladder stream: its master names them
        // from the start (filled with the source), so the publish can gain them later and
        // players already playing see them without reloading anything.
        const rungs = (wanted ?? decided.plan).renditions.filter((rendition) => !rendition.copy);
        state.layout = rungs.length > 0 ? 'ladder' : 'single';
        if (rungs.length > 0) {
          state.ladder = new StreamLadder(
            rungs.map((rung) => rung.name),
            new Map(rungs.map((rung) => [rung.name, { width: rung.width, height: rung.height }])),
          );
        }
      }
      for (const rendition of decided.plan.renditions) {
        if (!rendition.copy) state.ladder?.expect(rendition.name, index);
      }
      logger.info(
        {
          renditions: decided.plan.renditions.map((rendition) => rendition.name),
          reason,
          budget: deps.budget.snapshot(),
        },
        'publish renditions chosen',
      );
      report(deps, decided, reason);
      chosen = decided;
      return decided;
    },
    onRendition: (name: string, segments: HlsSegment[]) => {
      void state.enqueue(async () => {
        state.ladder?.set(name, index, StreamFolder.inPublish(index, segments));
        deps.changed();
      });
    },
  };
}

/**
 * The plan after `current` fell behind: without its most expensive rung (the encoded one
 * nearest the source, whose viewers the source itself serves best), admitted afresh; copy-only
 * when no rung is left or the budget says no.
 */
export function fewerRungs(
  current: PackagerPlan,
  budget: TranscodeBudget,
  frameRate: number | undefined,
): PackagerPlan {
  const encoded = current.plan.renditions.filter((rendition) => !rendition.copy);
  const drop = encoded[0];
  const renditions = current.plan.renditions.filter((rendition) => rendition !== drop);
  const plan = { renditions };
  const copyOnly: PackagerPlan = { plan: { renditions: [] }, hasAudio: current.hasAudio, ticket: undefined };
  if (!transcodes(plan)) return copyOnly;
  const ticket = budget.admit('live', encodedMegapixelsPerSecond(plan, frameRate ?? ASSUMED_FRAME_RATE));
  return ticket ? { plan, hasAudio: current.hasAudio, ticket } : copyOnly;
}

/**
 * For a publish of a ladder stream running copy-only because there was no CPU room when it
 * started: its rungs, if the budget admits them now (the ticket is taken); undefined while
 * there is still no room. Asked by the ingest's upkeep every few seconds; the machine's load
 * is read as a median over seconds, so a spike's end shows within a few of them.
 */
export function ladderIfRoom(
  deps: { config: TranscodeConfig; budget: TranscodeBudget; logger: Logger },
  state: LiveStream,
  meter: StreamMeter,
): PackagerPlan | undefined {
  if (state.layout !== 'ladder' || !state.ladder) return undefined;
  const measured = meter.measure();
  const { width, height } = measured.video ?? {};
  if (width === undefined || height === undefined) return undefined;
  const plan = planLadder({ width, height }, deps.config.rungs, new Set(state.ladder.rungs));
  if (!transcodes(plan)) return undefined;
  const admission = deps.budget.decide(
    'live',
    encodedMegapixelsPerSecond(plan, measured.frameRate ?? ASSUMED_FRAME_RATE),
  );
  if (!admission.admitted) return undefined;
  deps.logger.info(
    { ...roundFigures(admission.figures), rungs: plan.renditions.filter((r) => !r.copy).map((r) => r.name) },
    'CPU room now; the publish gains its renditions at the next keyframe',
  );
  return { plan, hasAudio: measured.audio !== undefined, ticket: admission.ticket };
}

/** The creator's view of a decision: the renditions viewers get, and why no more. */
function report(deps: LiveLadderDeps, chosen: PackagerPlan, reason: TranscodingReason | undefined): void {
  const names = chosen.plan.renditions.map((rendition) => rendition.name);
  deps.decided({
    // A copy-only plan lists nothing: the source alone.
    renditions: names.length > 0 ? names : [SOURCE_RENDITION],
    reason,
    decidedAt: deps.clock.now(),
  });
}

function decide(
  deps: LiveLadderDeps,
  width: number | undefined,
  height: number | undefined,
  hasAudio: boolean,
  frameRate: number | undefined,
): { plan: PackagerPlan; reason: TranscodingReason | undefined; wanted?: LadderPlan } {
  const copyOnly: PackagerPlan = { plan: { renditions: [] }, hasAudio, ticket: undefined };
  if (deps.state.layout === 'single') return { plan: copyOnly, reason: 'stream_copy_only' };
  // Audio only, or a picture the sequence header did not describe: nothing to scale.
  if (width === undefined || height === undefined) return { plan: copyOnly, reason: 'no_picture_size' };
  const allowed = deps.state.ladder ? new Set(deps.state.ladder.rungs) : undefined;
  const plan = planLadder({ width, height }, deps.config.rungs, allowed);
  if (!transcodes(plan)) return { plan: copyOnly, reason: 'source_too_small' };
  const cost = encodedMegapixelsPerSecond(plan, frameRate ?? ASSUMED_FRAME_RATE);
  const admission = deps.budget.decide('live', cost);
  const figures = roundFigures(admission.figures);
  if (!admission.admitted) {
    deps.logger.warn(
      { ...figures, rungs: plan.renditions.filter((r) => !r.copy).map((r) => r.name) },
      'no CPU room to transcode; publishing the source only',
    );
    return { plan: copyOnly, reason: 'no_cpu_room', wanted: plan };
  }
  deps.logger.info(
    { ...figures, rungs: plan.renditions.filter((r) => !r.copy).map((r) => r.name) },
    'transcoding admitted',
  );
  return { plan: { plan, hasAudio, ticket: admission.ticket }, reason: undefined };
}

/** The figures to two decimals, for a readable log line. */
function roundFigures(figures: AdmissionFigures): Record<string, number | undefined> {
  return Object.fromEntries(
    Object.entries(figures).map(([key, value]) => [
      key,
      value === undefined ? undefined : Math.round(value * 100) / 100,
    ]),
  );
}
