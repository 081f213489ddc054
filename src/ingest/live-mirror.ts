// What must outlive an ingest machine (issue 25): every finished live segment and the stream's
// playlist state, copied to the object store (MEDIA_STORAGE=s3) as they are written, under
// streams/<str_…>/ (the same relative names as in the stream's folder) and a state object
// (`live-state.json`: each publish's segments and the ladder's rungs). A machine that dies loses
// at most the segments not copied yet (a couple of seconds). The process that takes the stream
// over (its encoder's reconnect landed there) restores that state before its publish starts, so
// the stream continues as the next publish (p1/, p2/…) and its recording, made where it ends,
// holds everything before the loss. Only `--ingest-only` processes mirror: one process
// (`npm start`) plays and records from its own disk and never pays for a store round trip.
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import type { Logger } from 'pino';
import type { HlsSegment } from '../hls/hls-playlist.ts';
import { LIVE_STATE_FILE, MAX_LIVE_STATE_BYTES, parseLiveState, type LiveState } from '../hls/live-state.ts';
import type { LiveStream } from '../live/live-stream.ts';
import { PLAYLIST_FILE } from '../media/media-paths.ts';
import type { MediaStorage } from '../storage/media-storage.ts';
import { streamKey, streamPrefix } from '../storage/media-keys.ts';
import { StreamLadder } from '../transcode/stream-ladder.ts';

const STATE_FILE = LIVE_STATE_FILE;
const MAX_STATE_BYTES = MAX_LIVE_STATE_BYTES;

/** The mirrored playlist state of a stream. */
export type MirroredState = LiveState;

interface StreamMirror {
  uploaded: Set<string>;
  running: Promise<void> | undefined;
  again: boolean;
}

export class LiveMirror {
  private readonly storage: MediaStorage;
  private readonly logger: Logger;
  private readonly streams = new Map<string, StreamMirror>();

  constructor(storage: MediaStorage, logger: Logger) {
    this.storage = storage;
    this.logger = logger;
  }

  /** New segments were written: copies what is new, then the state; coalesced, never blocking. */
  changed(media: LiveStream): void {
    let mirror = this.streams.get(media.streamId);
    if (!mirror) {
      mirror = { uploaded: new Set(), running: undefined, again: false };
      this.streams.set(media.streamId, mirror);
    }
    if (mirror.running) {
      mirror.again = true;
      return;
    }
    const current = mirror;
    const run = async (): Promise<void> => {
      for (let pass = true; pass; pass = current.again) {
        current.again = false;
        try {
          await this.sync(media, current);
        } catch (error) {
          // Tried again with the next segment (a couple of seconds); what failed is still missing.
          this.logger.warn(
            { err: error, streamId: media.streamId },
            'could not copy live media to the store',
          );
        }
      }
      current.running = undefined;
    };
    current.running = run();
  }

  /** Waits for the copies under way (the recording, a drain). */
  async flush(streamId: string): Promise<void> {
    await this.streams.get(streamId)?.running;
  }

  private async sync(media: LiveStream, mirror: StreamMirror): Promise<void> {
    const state = stateOf(media);
    const files = [...new Set(allSegments(state).map((segment) => segment.uri))];
    for (const uri of files) {
      if (mirror.uploaded.has(uri)) continue;
      await this.storage.putFile(streamKey(media.streamId, uri), media.folder.file({ uri, duration: 0 }));
      mirror.uploaded.add(uri);
    }
    // A ladder stream's master is written once; a restored stream must serve the same one.
    if (media.ladder?.masterWritten === true && !mirror.uploaded.has(PLAYLIST_FILE)) {
      await this.storage.putFile(
        streamKey(media.streamId, PLAYLIST_FILE),
        path.join(media.folder.dir, PLAYLIST_FILE),
      );
      mirror.uploaded.add(PLAYLIST_FILE);
    }
    await this.storage.put(streamKey(media.streamId, STATE_FILE), JSON.stringify(state), {
      contentType: 'application/json',
    });
  }

  /** The stream's mirrored state, or undefined when none was mirrored. */
  async load(streamId: string): Promise<MirroredState | undefined> {
    const object = await this.storage.get(streamKey(streamId, STATE_FILE));
    if (!object) return undefined;
    if (object.length > MAX_STATE_BYTES) {
      object.body.destroy();
      throw new Error(`the mirrored state of ${streamId} is ${object.length} bytes`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of object.body) chunks.push(chunk as Buffer);
    return parseLiveState(Buffer.concat(chunks).toString('utf8'));
  }

  /**
   * Takes a mirrored stream's state into `media` (its publishes and ladder), so the next
   * publish continues it; returns the downloading of its files into the stream's folder, to
   * run on the stream's queue before anything writes its playlists.
   */
  restore(media: LiveStream, state: MirroredState): () => Promise<void> {
    media.publishes.push(...state.publishes);
    if (state.ladder) {
      const ladder = new StreamLadder(state.ladder.rungs);
      ladder.masterWritten = true;
      for (const [rung, lists] of Object.entries(state.ladder.made)) {
        lists.forEach((segments, index) => {
          if (segments) ladder.set(rung, index, segments);
        });
      }
      media.layout = 'ladder';
      media.ladder = ladder;
    } else if (media.hasSegments()) {
      media.layout = 'single';
    }
    const mirror: StreamMirror = { uploaded: new Set(), running: undefined, again: false };
    this.streams.set(media.streamId, mirror);
    const files = [...new Set(allSegments(state).map((segment) => segment.uri))];
    if (state.ladder) files.push(PLAYLIST_FILE);
    return async () => {
      for (const uri of files) {
        const target = media.folder.file({ uri, duration: 0 });
        await fs.mkdir(path.dirname(target), { recursive: true });
        const object = await this.storage.get(streamKey(media.streamId, uri));
        if (!object) {
          this.logger.warn(
            { streamId: media.streamId, uri },
            'a mirrored live file is missing from the store',
          );
          continue;
        }
        await pipeline(object.body, createWriteStream(target));
        mirror.uploaded.add(uri);
      }
    };
  }

  /** The stream is recorded (or keeps no recording): its live copies go. */
  async remove(streamId: string): Promise<void> {
    await this.flush(streamId);
    this.streams.delete(streamId);
    await this.storage.deletePrefix(streamPrefix(streamId));
  }

  /** Forgets a stream handed to another process (its copies stay: they are the stream's). */
  forget(streamId: string): void {
    this.streams.delete(streamId);
  }
}

function stateOf(media: LiveStream): MirroredState {
  const publishes = media.publishes.map((segments) => [...segments]);
  const { ladder } = media;
  if (!ladder) return { version: 1, publishes };
  const made: Record<string, (HlsSegment[] | null)[]> = {};
  for (const rung of ladder.rungs) {
    made[rung] = publishes.map((_, index) => {
      const segments = ladder.made(rung, index);
      return segments ? [...segments] : null;
    });
  }
  return { version: 1, publishes, ladder: { rungs: [...ladder.rungs], made } };
}

function allSegments(state: MirroredState): HlsSegment[] {
  const rungs = state.ladder ? Object.values(state.ladder.made).flat() : [];
  return [...state.publishes.flat(), ...rungs.flatMap((segments) => segments ?? [])];
}
