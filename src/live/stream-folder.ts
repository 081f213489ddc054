// A live stream's folder on disk (MediaPaths.streamDir): one subfolder per publish (p0/, p1/,
// ...) that its packager writes segments and a playlist into, the playlist players fetch
// (index.m3u8), which strings the publishes together, and the live thumbnail. Nothing else in
// ingest knows how the folder is laid out.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { HlsSegment, ParsedPlaylist } from '../hls/hls-playlist.ts';
import { readPlaylist, renderPlaylist, writeFileAtomic } from '../hls/hls-playlist.ts';
import {
  PLAYLIST_FILE,
  publishFolder,
  RECONNECTING_MARKER,
  THUMBNAIL_FILE,
  type MediaPaths,
} from '../media/media-paths.ts';
import { buildMasterPlaylist } from '../transcode/master-writer.ts';
import { renditionPlaylist, SOURCE_RENDITION } from '../transcode/ladder.ts';
import { renditionIndex, StreamLadder } from '../transcode/stream-ladder.ts';
import { isMasterPlaylist, parseMasterPlaylist } from '../hls/master-playlist.ts';
import { PUBLISH_PLAYLIST } from './hls-packager.ts';

const RECORDED_MARKER = '.recorded';

export class StreamFolder {
  private readonly paths: MediaPaths;
  readonly streamId: string;
  readonly dir: string;

  constructor(paths: MediaPaths, streamId: string) {
    this.paths = paths;
    this.streamId = streamId;
    this.dir = paths.streamDir(streamId);
  }

  /** Where publish `index` is packaged. */
  publishDir(index: number): string {
    return this.paths.publishDir(this.streamId, index);
  }

  /** A packager's segments (URIs relative to its publish folder) as the stream's playlist lists them. */
  static inPublish(index: number, segments: readonly HlsSegment[]): HlsSegment[] {
    const prefix = `${publishFolder(index)}/`;
    return segments.map((segment) => ({ ...segment, uri: prefix + segment.uri }));
  }

  file(segment: HlsSegment): string {
    return path.join(this.dir, segment.uri);
  }

  get thumbnail(): string {
    return path.join(this.dir, THUMBNAIL_FILE);
  }

  /** The playlist players fetch: EVENT while live, finished once `ended`. */
  async writePlaylist(publishes: HlsSegment[][], ended: boolean): Promise<void> {
    await writeFileAtomic(
      path.join(this.dir, PLAYLIST_FILE),
      renderPlaylist({ publishes, type: 'EVENT', ended }),
    );
  }

  /**
   * A ladder stream's playlists: the source's and each rung's media playlist, and, once every
   * rendition has a segment, the master (index.m3u8) naming them, written once. True once the
   * master is there (the stream is playable).
   */
  async writeLadderPlaylists(
    publishes: HlsSegment[][],
    ladder: StreamLadder,
    ended: boolean,
    ffprobePath: string,
    peakBps: (rung: string) => number | undefined,
  ): Promise<boolean> {
    const write = (name: string, content: HlsSegment[][]) =>
      writeFileAtomic(
        path.join(this.dir, renditionIndex(name)),
        renderPlaylist({ publishes: content, type: 'EVENT', ended }),
      );
    await write(SOURCE_RENDITION, publishes);
    for (const rung of ladder.rungs) await write(rung, ladder.publishesOf(rung, publishes, ended));
    if (ladder.masterWritten) return true;
    const first = publishes.findIndex((segments) => segments.length > 0);
    if (first < 0) return false;
    const entries = [
      { name: SOURCE_RENDITION, segments: publishes[first] ?? [] },
      ...ladder.rungs.map((rung) => ({
        name: rung,
        segments: ladder.publishesOf(rung, publishes, ended)[first] ?? [],
        peakBps: peakBps(rung),
        // Not encoded by the first publish (no CPU room then): described from the plan.
        planned: ladder.made(rung, first) === undefined ? ladder.plannedSize(rung) : undefined,
      })),
    ];
    if (entries.some((entry) => entry.segments.length === 0)) return false;
    const master = await buildMasterPlaylist(ffprobePath, this.dir, entries);
    await writeFileAtomic(path.join(this.dir, PLAYLIST_FILE), master);
    ladder.masterWritten = true;
    return true;
  }

  /** The source's media playlist: index.m3u8, or source.m3u8 in a ladder stream. */
  async readPlaylist(): Promise<ParsedPlaylist> {
    const source = await readPlaylist(path.join(this.dir, renditionIndex(SOURCE_RENDITION)));
    if (source.segments.length > 0) return source;
    return readPlaylist(path.join(this.dir, PLAYLIST_FILE));
  }

  /** The segments of every publish on disk, in order (what a restart finds). */
  async readPublishes(): Promise<HlsSegment[][]> {
    const publishes: HlsSegment[][] = [];
    for (let index = 0; ; index++) {
      const dir = this.publishDir(index);
      if (!(await isDirectory(dir))) break;
      let { segments } = await readPlaylist(path.join(dir, PUBLISH_PLAYLIST));
      // A publish that made renditions names its source's playlist after it.
      if (segments.length === 0)
        ({ segments } = await readPlaylist(path.join(dir, renditionPlaylist(SOURCE_RENDITION))));
      publishes.push(StreamFolder.inPublish(index, segments));
    }
    return publishes;
  }

  /**
   * A ladder stream's renditions on disk (what a restart finds), from its master and each
   * publish's rendition playlists; undefined for a single-playlist stream.
   */
  async readLadder(publishCount: number): Promise<StreamLadder | undefined> {
    let text: string;
    try {
      text = await fs.readFile(path.join(this.dir, PLAYLIST_FILE), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    if (!isMasterPlaylist(text)) return undefined;
    const rungs = parseMasterPlaylist(text)
      .map((variant) => variant.uri.replace(/\.m3u8$/, ''))
      .filter((name) => name !== SOURCE_RENDITION && /^\d{2,4}p$/.test(name));
    const ladder = new StreamLadder(rungs);
    ladder.masterWritten = true;
    for (let index = 0; index < publishCount; index++) {
      for (const rung of rungs) {
        const file = path.join(this.publishDir(index), renditionPlaylist(rung));
        const { segments } = await readPlaylist(file);
        if (segments.length > 0) ladder.set(rung, index, StreamFolder.inPublish(index, segments));
      }
    }
    return ladder;
  }

  /**
   * The stream ended and its recording is a published video (or it keeps none): restart
   * recovery has nothing to finish here. A dot file, which the media routes never serve.
   */
  async markRecorded(): Promise<void> {
    await fs.writeFile(path.join(this.dir, RECORDED_MARKER), '');
  }

  async isRecorded(): Promise<boolean> {
    try {
      await fs.access(path.join(this.dir, RECORDED_MARKER));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The publisher is gone and ingest waits for it (or not any more): the watch page's info
   * reads this (it may be served by another process), so viewers see a notice instead of a
   * frozen frame. A dot file, which the media routes never serve.
   */
  async setReconnecting(reconnecting: boolean): Promise<void> {
    const marker = path.join(this.dir, RECONNECTING_MARKER);
    if (!reconnecting) {
      await fs.rm(marker, { force: true });
      return;
    }
    try {
      await fs.writeFile(marker, '');
    } catch (error) {
      // A stream that never published has no folder: nobody is watching it either.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** A stream that never went live leaves nothing behind. */
  async remove(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
  }

  /** record: false keeps no recording; the thumbnail stays for the stream's thumbnail_url. */
  async removeAllButThumbnail(): Promise<void> {
    const entries = await fs.readdir(this.dir);
    await Promise.all(
      entries
        .filter((entry) => entry !== THUMBNAIL_FILE)
        .map((entry) => fs.rm(path.join(this.dir, entry), { recursive: true, force: true })),
    );
  }
}

/** False when nothing is there; a folder that cannot be read is an error, not the end. */
async function isDirectory(dir: string): Promise<boolean> {
  try {
    return (await fs.stat(dir)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
