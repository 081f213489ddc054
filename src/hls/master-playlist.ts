// HLS master playlists: the `index.m3u8` of a stream or video with renditions, naming each
// rendition's media playlist with what a player needs to choose among them before loading
// any (RFC 8216 4.3.4.2). Pure functions; the callers do the file work.

export interface VariantInfo {
  /** The rendition's media playlist, relative to the master. */
  uri: string;
  /** Peak bits per second of any segment (BANDWIDTH). */
  bandwidth: number;
  /** Mean bits per second over the segments (AVERAGE-BANDWIDTH). */
  averageBandwidth: number;
  width: number;
  height: number;
  frameRate: number | undefined;
  /** RFC 6381 codec strings, video then audio (`avc1.64001f,mp4a.40.2`). */
  codecs: string;
}

export function renderMasterPlaylist(variants: readonly VariantInfo[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const variant of variants) {
    const attributes = [
      `BANDWIDTH=${Math.round(variant.bandwidth)}`,
      `AVERAGE-BANDWIDTH=${Math.round(variant.averageBandwidth)}`,
      `RESOLUTION=${variant.width}x${variant.height}`,
      ...(variant.frameRate === undefined ? [] : [`FRAME-RATE=${variant.frameRate.toFixed(3)}`]),
      `CODECS="${variant.codecs}"`,
    ];
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, variant.uri);
  }
  return `${lines.join('\n')}\n`;
}

export interface ParsedVariant {
  uri: string;
  attributes: Record<string, string>;
}

/** The variants a master playlist names, with their attributes (quotes removed). */
export function parseMasterPlaylist(text: string): ParsedVariant[] {
  const variants: ParsedVariant[] = [];
  let pending: Record<string, string> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-STREAM-INF:')) {
      pending = {};
      for (const match of line.slice('#EXT-X-STREAM-INF:'.length).matchAll(/([A-Z0-9-]+)=("[^"]*"|[^,]*)/g)) {
        pending[match[1] ?? ''] = (match[2] ?? '').replace(/^"|"$/g, '');
      }
    } else if (line !== '' && !line.startsWith('#') && pending) {
      variants.push({ uri: line, attributes: pending });
      pending = undefined;
    }
  }
  return variants;
}

export function isMasterPlaylist(text: string): boolean {
  return text.includes('#EXT-X-STREAM-INF:');
}

const AVC_PROFILES: Record<string, string> = {
  'Constrained Baseline': '42e0',
  Baseline: '4200',
  Main: '4d40',
  Extended: '5800',
  High: '6400',
  'High 10': '6e00',
  'High 4:2:2': '7a00',
  'High 4:4:4 Predictive': 'f400',
};

/** `avc1.PPCCLL` from ffprobe's profile name and level number (`High`, 31 → avc1.64001f). */
export function avcCodecString(profile: string | undefined, level: number | undefined): string {
  const profileHex = AVC_PROFILES[profile ?? ''] ?? '6400';
  const levelHex = Math.max(0, Math.min(255, level ?? 40))
    .toString(16)
    .padStart(2, '0');
  return `avc1.${profileHex}${levelHex}`;
}

/** `mp4a.40.N` from ffprobe's codec and profile names (AAC LC unless it says otherwise). */
export function audioCodecString(codec: string | undefined, profile: string | undefined): string | undefined {
  if (codec === undefined) return undefined;
  if (codec === 'mp3') return 'mp4a.40.34';
  if (profile === 'HE-AACv2') return 'mp4a.40.29';
  if (profile === 'HE-AAC') return 'mp4a.40.5';
  return 'mp4a.40.2';
}
