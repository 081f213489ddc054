// Password hashing with scrypt from node:crypto, a memory-hard KDF: each guess costs an
// attacker 32 MiB of memory as well as time. N=2^15, r=8, p=3 is one of OWASP's recommended
// scrypt settings (the one with the least memory per hash, so a burst of sign-ins cannot
// exhaust a small server). The parameters are stored with each hash, so raising them later
// leaves existing hashes verifiable.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 3 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

function derive(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  // maxmem above 128*N*r, which is what one hash needs.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

export async function hashPassword(password: string, cost = DEFAULT_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

// Verified against when the email is unknown, so an unknown account takes as long as a wrong password.
const DUMMY_HASH_SALT = randomBytes(SALT_BYTES);

/** `dummyCost`: what hashing costs where the hash was missing (the cost new hashes are made with). */
export async function verifyPassword(
  password: string,
  stored: string | null,
  dummyCost = DEFAULT_SCRYPT_COST,
): Promise<boolean> {
  const parts = stored?.split('$') ?? [];
  const [kind, n, r, p, salt, key] = parts;
  if (kind !== 'scrypt' || salt === undefined || key === undefined) {
    await derive(password, DUMMY_HASH_SALT, dummyCost);
    return false;
  }
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
