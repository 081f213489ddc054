import { randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix = 'str' | 'vid' | 'usr' | 'wh' | 'evt' | 'sub' | 'key' | 'dlv' | 'req';

/**
 * A prefixed identifier with 22 base62 characters from a CSPRNG (about 131 bits): IDs of
 * private (unlisted) resources must be unguessable.
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(22)}`;
}

export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET.charAt(randomInt(ALPHABET.length));
  return out;
}
