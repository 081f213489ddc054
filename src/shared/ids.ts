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

/**
 * A prefixed identifier that sorts by creation time: 8 base62 characters of the millisecond
 * clock, then 17 random ones (about 101 bits, still unguessable). Rows written together then sit
 * together in the indexes keyed by it, so a batch of inserts dirties a few index pages, not one
 * page per row (webhook deliveries: issue 29).
 */
export function newTimeOrderedId(prefix: IdPrefix, now = Date.now()): string {
  let time = '';
  let rest = Math.floor(now);
  for (let i = 0; i < 8; i++) {
    time = `${ALPHABET.charAt(rest % 62)}${time}`;
    rest = Math.floor(rest / 62);
  }
  return `${prefix}_${time}${randomBase62(17)}`;
}
