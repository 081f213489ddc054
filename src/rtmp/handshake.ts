// The RTMP handshake, server side: C0 (version) and C1 (1,536 bytes) in, S0 S1 S2 out, then
// C2 (1,536 bytes, ignored) in. Besides the plain handshake of the specification, Flash-style
// clients (ffmpeg's RTMP client, OBS through librtmp) send a C1 carrying an HMAC-SHA256
// digest and check one in S1 and S2 (the "complex" handshake, undocumented by Adobe; the
// logic follows node-media-server 4.4.3's rtmp.js, which ffmpeg accepts).
import { createHmac, randomBytes } from 'node:crypto';
import { RtmpProtocolError } from './protocol-error.ts';

export const HANDSHAKE_SIZE = 1536;
const RTMP_VERSION = 3;
const DIGEST_SIZE = 32;

const GENUINE_FMS = Buffer.from('Genuine Adobe Flash Media Server 001', 'utf8');
const GENUINE_FP = Buffer.from('Genuine Adobe Flash Player 001', 'utf8');
const RANDOM_CRUD = Buffer.from('f0eec24a8068bee82e00d0d1029e7e576eec5d2d29806fab93b8e636cfeb31ae', 'hex');
const GENUINE_FMS_CRUD = Buffer.concat([GENUINE_FMS, RANDOM_CRUD]);

/** Where the digest sits in a 1,536-byte block, per the two layouts clients use. */
type DigestScheme = 'client' | 'server';

function digestOffset(block: Buffer, scheme: DigestScheme): number {
  const base = scheme === 'client' ? 8 : 772;
  const sum =
    (block[base] as number) +
    (block[base + 1] as number) +
    (block[base + 2] as number) +
    (block[base + 3] as number);
  return (sum % 728) + (scheme === 'client' ? 12 : 776);
}

function hmac(key: Buffer, ...data: Buffer[]): Buffer {
  const mac = createHmac('sha256', key);
  for (const part of data) mac.update(part);
  return mac.digest();
}

/** The block without its digest: what the digest is computed over. */
function digestOf(block: Buffer, offset: number, key: Buffer): Buffer {
  return hmac(key, block.subarray(0, offset), block.subarray(offset + DIGEST_SIZE));
}

/** The scheme whose digest in C1 checks out, or undefined for a plain handshake. */
function detectScheme(c1: Buffer): DigestScheme | undefined {
  for (const scheme of ['server', 'client'] as const) {
    const offset = digestOffset(c1, scheme);
    const expected = digestOf(c1, offset, GENUINE_FP);
    if (expected.equals(c1.subarray(offset, offset + DIGEST_SIZE))) return scheme;
  }
  return undefined;
}

/** S0 S1 S2 for a C1. */
export function serverHandshake(c1: Buffer): Buffer {
  const s0 = Buffer.from([RTMP_VERSION]);
  const scheme = detectScheme(c1);
  if (!scheme) {
    // Plain handshake: S1 is time, zeros and random bytes; S2 echoes C1.
    const s1 = Buffer.concat([Buffer.alloc(8), randomBytes(HANDSHAKE_SIZE - 8)]);
    return Buffer.concat([s0, s1, c1]);
  }
  // S1: time 0, a server version, random bytes, and our digest at the client's scheme's place.
  const s1 = Buffer.concat([Buffer.from([0, 0, 0, 0, 1, 2, 3, 4]), randomBytes(HANDSHAKE_SIZE - 8)]);
  const s1Offset = digestOffset(s1, scheme);
  digestOf(s1, s1Offset, GENUINE_FMS).copy(s1, s1Offset);
  // S2: random bytes signed with a key derived from the client's digest.
  const clientDigest = c1.subarray(digestOffset(c1, scheme), digestOffset(c1, scheme) + DIGEST_SIZE);
  const key = hmac(GENUINE_FMS_CRUD, clientDigest);
  const s2Random = randomBytes(HANDSHAKE_SIZE - DIGEST_SIZE);
  const s2 = Buffer.concat([s2Random, hmac(key, s2Random)]);
  return Buffer.concat([s0, s1, s2]);
}

/**
 * Consumes handshake bytes as they arrive. `feed` returns how many bytes of `data` it used
 * and the reply to send, if any; once `done`, the rest of the stream is chunks.
 */
export class HandshakeReader {
  private stage: 'c0c1' | 'c2' | 'done' = 'c0c1';
  private readonly buffer = Buffer.alloc(1 + HANDSHAKE_SIZE);
  private filled = 0;

  get done(): boolean {
    return this.stage === 'done';
  }

  feed(data: Buffer): { used: number; reply: Buffer | undefined } {
    if (this.stage === 'done') return { used: 0, reply: undefined };
    const want = this.stage === 'c0c1' ? 1 + HANDSHAKE_SIZE : HANDSHAKE_SIZE;
    if (this.filled === 0 && this.stage === 'c0c1' && data.length > 0 && data[0] !== RTMP_VERSION) {
      // 6 would be RTMPE (encrypted), which this server does not speak.
      throw new RtmpProtocolError(`handshake: unsupported RTMP version ${data[0]}`);
    }
    const used = Math.min(want - this.filled, data.length);
    data.copy(this.buffer, this.filled, 0, used);
    this.filled += used;
    if (this.filled < want) return { used, reply: undefined };
    this.filled = 0;
    if (this.stage === 'c2') {
      this.stage = 'done';
      return { used, reply: undefined };
    }
    this.stage = 'c2';
    return { used, reply: serverHandshake(Buffer.from(this.buffer.subarray(1))) };
  }
}
