// What an uploaded profile image is, from its first bytes alone: PNG, JPEG, GIF or WebP and its
// size in pixels, read from the header without decoding. Anything else, and any picture too
// small or too large to be worth decoding (a decompression bomb), is refused here, before
// ffmpeg sees a byte; ffmpeg is then told the format, so it never guesses one (a "picture"
// that is really a playlist naming other files is read as a picture and fails).

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

export interface SniffedImage {
  format: ImageFormat;
  width: number;
  height: number;
}

export const MIN_IMAGE_SIDE = 32;
export const MAX_IMAGE_SIDE = 8192;
export const MAX_IMAGE_PIXELS = 40_000_000;

/** ffmpeg's demuxer for each format (-f), so nothing is probed. */
export const DEMUXER: Record<ImageFormat, string> = {
  png: 'png_pipe',
  jpeg: 'jpeg_pipe',
  gif: 'gif',
  webp: 'webp_pipe',
};

export class ImageRefusal extends Error {}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function size(bytes: Buffer): { format: ImageFormat; width: number; height: number } | undefined {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    if (bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
    return { format: 'png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  const head = bytes.toString('latin1', 0, 6);
  if (bytes.length >= 10 && (head === 'GIF87a' || head === 'GIF89a')) {
    return { format: 'gif', width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  if (
    bytes.length >= 30 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return webpSize(bytes);
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  return undefined;
}

function webpSize(bytes: Buffer): SniffedImage | undefined {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    return {
      format: 'webp',
      width: bytes.readUInt16LE(26) & 0x3fff,
      height: bytes.readUInt16LE(28) & 0x3fff,
    };
  }
  if (chunk === 'VP8L') {
    const [b0 = 0, b1 = 0, b2 = 0, b3 = 0] = bytes.subarray(21, 25);
    return {
      format: 'webp',
      width: 1 + (b0 | ((b1 & 0x3f) << 8)),
      height: 1 + ((b1 >> 6) | (b2 << 2) | ((b3 & 0x0f) << 10)),
    };
  }
  if (chunk === 'VP8X') {
    return { format: 'webp', width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  }
  return undefined;
}

/** Walks the JPEG's segments to its frame header (SOFn), which holds the size. */
function jpegSize(bytes: Buffer): SniffedImage | undefined {
  let at = 2;
  // Bounded by the buffer: each step moves forward by at least two bytes.
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame)
      return { format: 'jpeg', height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    if (marker === 0xd9 || marker === 0xda) return undefined;
    at += 2 + length;
  }
  return undefined;
}

/** The image these bytes are, or an ImageRefusal saying why not, in words for the uploader. */
export function sniffImage(bytes: Buffer): SniffedImage {
  const found = size(bytes);
  if (!found) {
    throw new ImageRefusal('This file is not a PNG, JPEG, GIF or WebP image.');
  }
  const { width, height } = found;
  if (width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) {
    throw new ImageRefusal(
      `The image is ${width}×${height} pixels: it must be at least ${MIN_IMAGE_SIDE} pixels each way.`,
    );
  }
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE || width * height > MAX_IMAGE_PIXELS) {
    throw new ImageRefusal(
      `The image is ${width}×${height} pixels: at most ${MAX_IMAGE_SIDE} pixels each way and 40 megapixels are taken.`,
    );
  }
  return found;
}
