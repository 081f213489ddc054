// Simulcast as an output of a live publish: each enabled destination of the stream gets its own
// RtmpRelay (stream copy through its own ffmpeg), fed the publisher's FLV. A destination that
// fails or falls behind never disturbs the publish or the other destinations: a relay that
// throws is passed over, and each relay's state goes to SimulcastService.recordState (which
// records the row and the webhook event), in order per destination; a failure to record is
// logged, never thrown into the pipeline. When the publish ends, every destination is stopped.
import type { Logger } from 'pino';
import type { OutputRun, PublishInfo, PublishOutput } from '../live/publish-output.ts';
import type { FlvSink } from '../rtmp/rtmp-server.ts';
import { RtmpRelay, type RelayState, type RtmpRelayOptions } from './rtmp-relay.ts';
import type { SimulcastKeys } from './simulcast-keys.ts';
import type { SimulcastService } from './simulcast.service.ts';

export interface SimulcastOutputOptions {
  /** Which destinations a stream has, and where their states are recorded. */
  simulcast: SimulcastService;
  /** Opens each destination's sealed stream key. */
  keys: SimulcastKeys;
  ffmpegPath: string;
  /** The relays' timings (tests shorten them); RtmpRelay's defaults otherwise. */
  relay?: Pick<RtmpRelayOptions, 'backoffMs' | 'stableMs' | 'maxBacklogBytes'>;
}

/** A destination whose key cannot be opened is not tried; its state says why. */
export const UNREADABLE_KEY_REASON =
  "The stream key can no longer be read (the server's secret key changed); enter it again.";

export class SimulcastOutput implements PublishOutput {
  readonly name = 'simulcast';
  private readonly options: SimulcastOutputOptions;

  constructor(options: SimulcastOutputOptions) {
    this.options = options;
  }

  async open(publish: PublishInfo): Promise<OutputRun | undefined> {
    const { simulcast, keys } = this.options;
    const logger = publish.logger.child({ output: 'simulcast' });
    let targets;
    try {
      targets = await simulcast.enabledTargets(publish.streamId);
    } catch (error) {
      logger.error(
        { err: error },
        'simulcast destinations could not be read; the publish goes on without them',
      );
      return undefined;
    }
    if (targets.length === 0) return undefined;

    const recorder = new StateRecorder(logger);
    const relays: { id: string; relay: RtmpRelay }[] = [];
    const unreadable: string[] = [];
    for (const target of targets) {
      const streamKey = keys.open(target.key_ciphertext, target.id);
      if (streamKey === undefined) {
        unreadable.push(target.id);
        recorder.record(target.id, () =>
          simulcast.recordState(target.id, { state: 'failing', reason: UNREADABLE_KEY_REASON, retryInMs: 0 }),
        );
        continue;
      }
      // The run starts at connecting, whatever the destination said at the last publish (the
      // relay's own first `connecting` is emitted before anyone can listen).
      recorder.record(target.id, () => simulcast.recordRunStart(target.id));
      const relay = new RtmpRelay({
        ffmpegPath: this.options.ffmpegPath,
        serverUrl: target.url,
        streamKey,
        logger,
        label: target.id,
        ...this.options.relay,
      });
      relay.on('state', (state: RelayState) => {
        recorder.record(target.id, () => simulcast.recordState(target.id, state));
      });
      relays.push({ id: target.id, relay });
    }
    logger.info(
      { destinations: relays.map((r) => r.id), unreadable },
      `simulcast to ${relays.length} destination(s)`,
    );

    let stopping: Promise<void> | undefined;
    const stopAll = (): Promise<void> => {
      stopping ??= (async () => {
        for (const { relay } of relays) relay.stop();
        for (const id of unreadable) {
          recorder.record(id, () => simulcast.recordState(id, { state: 'stopped' }));
        }
        await Promise.all(relays.map(({ relay }) => relay.closed));
        await recorder.settled();
      })();
      return stopping;
    };
    let resolveFinished: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      resolveFinished = resolve;
    });
    const finish = () => {
      void stopAll().then(resolveFinished);
    };

    const failedWrites = new Set<string>();
    const sink: FlvSink = {
      write(chunk) {
        for (const { id, relay } of relays) {
          try {
            relay.write(chunk);
          } catch (error) {
            // One destination's fault is its own: the chunk still goes to the others.
            if (!failedWrites.has(id)) {
              failedWrites.add(id);
              logger.error({ err: error, destination: id }, 'a simulcast destination refused a chunk');
            }
          }
        }
      },
      end: finish,
    };
    return { sink, stop: finish, finished };
  }
}

/** Each destination's state writes, one after another, so they land in the order they happened. */
class StateRecorder {
  private readonly chains = new Map<string, Promise<void>>();
  private readonly logger: Logger;

  constructor(logger: Logger) {
    this.logger = logger;
  }

  record(targetId: string, write: () => Promise<void>): void {
    const previous = this.chains.get(targetId) ?? Promise.resolve();
    const next = previous.then(write).catch((error: unknown) => {
      this.logger.error({ err: error, destination: targetId }, 'a simulcast state could not be recorded');
    });
    this.chains.set(targetId, next);
  }

  async settled(): Promise<void> {
    // Writes queued while waiting are waited for too.
    let pending: Promise<void>[];
    do {
      pending = [...this.chains.values()];
      await Promise.all(pending);
    } while ([...this.chains.values()].some((chain, index) => chain !== pending[index]));
  }
}
