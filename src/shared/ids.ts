import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix =
  | 'str'
  | 'vid'
  | 'usr'
  | 'wh'
  | 'evt'
  | 'sub'
  | 'key'
  | 'dlv'
  | 'req'
  | 'rcv'
  | 'upl'
  | 'job'
  | 'sim'
  | 'att'
  | 'msg'
  | 'chm'
  | 'mod'
  | 'rpt'
  | 'aud';

/**
 * A prefixed identifier with 22 base62 characters from a CSPRNG (about 131 bits): IDs of
 * private (unlisted) resources must be unguessable.
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}

// Random bytes are drawn from the CSPRNG in blocks: one draw per request id was a visible
// share of a request's cost.
const POOL_SIZE = 4096;
let pool = Buffer.alloc(0);
let poolOffset = 0;

function randomByte(): number {
  if (poolOffset >= pool.length) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  return pool[poolOffset++] ?? 0;
}

/** Uniform base62: bytes of 248 and above are dropped, so `byte % 62` has no bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET.charAt(byte % 62);
  }
  return out;
}
