// HLS media playlists: reading what ffmpeg wrote for one publish, and writing the playlist
// players fetch, which strings the publishes of a stream together (a reconnect is a
// discontinuity, not a new stream). Pure functions; the callers do the file work.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface HlsSegment {
  /** Seconds, as the packager measured them from the media's timestamps. */
  duration: number;
  /** Relative to the playlist that lists it. */
  uri: string;
  /**
   * EXT-X-PROGRAM-DATE-TIME: the wall-clock time of the segment's first frame, as the packager
   * wrote it (ISO 8601, kept as text so it is rendered exactly as read). Players use it to
   * place the live edge and report how far behind it they are.
   */
  programDateTime?: string;
}

export interface ParsedPlaylist {
  segments: HlsSegment[];
  ended: boolean;
}

export function parseMediaPlaylist(text: string): ParsedPlaylist {
  const segments: HlsSegment[] = [];
  let pending: number | undefined;
  let pendingDate: string | undefined;
  let ended = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXTINF:')) {
      pending = Number.parseFloat(line.slice('#EXTINF:'.length));
    } else if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) {
      const date = line.slice('#EXT-X-PROGRAM-DATE-TIME:'.length);
      // A date a player could not read is dropped rather than passed on.
      pendingDate = Number.isNaN(Date.parse(date)) ? undefined : date;
    } else if (line === '#EXT-X-ENDLIST') {
      ended = true;
    } else if (line !== '' && !line.startsWith('#') && pending !== undefined) {
      const segment: HlsSegment = { duration: Number.isFinite(pending) ? pending : 0, uri: line };
      if (pendingDate !== undefined) segment.programDateTime = pendingDate;
      segments.push(segment);
      pending = undefined;
      pendingDate = undefined;
    }
  }
  return { segments, ended };
}

export interface PlaylistContent {
  /** One list per publish, in order; a discontinuity separates them. */
  publishes: HlsSegment[][];
  /** EVENT while live (segments are only ever added), VOD for a finished video. */
  type: 'EVENT' | 'VOD';
  ended: boolean;
}

export function renderPlaylist(content: PlaylistContent): string {
  const all = content.publishes.flat();
  // RFC 8216 4.3.3.1: each EXTINF, rounded to the nearest integer, is at most the target. Not the
  // ceiling: a 1.03 s segment would make the target 2, and players hold back from the live edge
  // by a multiple of the target.
  const target = Math.max(1, ...all.map((segment) => Math.round(segment.duration)));
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:6',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    `#EXT-X-PLAYLIST-TYPE:${content.type}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  let first = true;
  for (const publish of content.publishes) {
    if (publish.length === 0) continue;
    if (!first) lines.push('#EXT-X-DISCONTINUITY');
    first = false;
    for (const segment of publish) {
      if (segment.programDateTime !== undefined) {
        lines.push(`#EXT-X-PROGRAM-DATE-TIME:${segment.programDateTime}`);
      }
      lines.push(`#EXTINF:${segment.duration.toFixed(6)},`, segment.uri);
    }
  }
  if (content.ended) lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

/**
 * Dates a publish's segments from the moment its first frame reached the ingest, plus media
 * time. ffmpeg's own dates start when its HLS muxer did, after probing the input: a second or
 * two after the first frame, which would make every player's idea of the live edge's wall-clock
 * time that much late.
 */
export function datedFrom(firstFrameAt: number, segments: readonly HlsSegment[]): HlsSegment[] {
  let start = firstFrameAt;
  return segments.map((segment) => {
    const dated = { ...segment, programDateTime: new Date(Math.round(start)).toISOString() };
    start += segment.duration * 1000;
    return dated;
  });
}

export function totalDuration(segments: readonly HlsSegment[]): number {
  return segments.reduce((sum, segment) => sum + segment.duration, 0);
}

/** The segment playing at `seconds` into the list, and the offset into it. */
export function segmentAt(
  segments: readonly HlsSegment[],
  seconds: number,
): { segment: HlsSegment; offset: number } | undefined {
  let start = 0;
  for (const segment of segments) {
    if (seconds < start + segment.duration) return { segment, offset: Math.max(0, seconds - start) };
    start += segment.duration;
  }
  const last = segments.at(-1);
  return last ? { segment: last, offset: 0 } : undefined;
}

/** Reads a playlist file; a missing one is an empty, unfinished playlist. */
export async function readPlaylist(file: string): Promise<ParsedPlaylist> {
  try {
    return parseMediaPlaylist(await fs.readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { segments: [], ended: false };
    throw error;
  }
}

/** Replaces a file in one step, so a player never reads half a playlist. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  await fs.writeFile(temporary, text);
  await fs.rename(temporary, file);
}
