// One address, one account: addresses are compared (and stored) normalized. Unicode NFKC
// folds look-alike forms (full-width letters, ligatures) into one, the whole address is
// lower-cased (no real mailbox distinguishes case, whatever RFC 5321 allows), and a trailing
// dot in the domain (`example.com.`, the DNS root) is dropped.
import { invalidParameter } from '../shared/errors.ts';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX_LENGTH = 254;

/** The address as stored and compared, or undefined when it is not an address. */
export function canonicalEmail(raw: string): string | undefined {
  let email = raw.normalize('NFKC').trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at > 0) email = `${email.slice(0, at)}@${email.slice(at + 1).replace(/\.+$/, '')}`;
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email) ? email : undefined;
}

/** canonicalEmail, or invalid_parameter on `email`. */
export function normalizeEmail(raw: string): string {
  const email = canonicalEmail(raw);
  if (email === undefined)
    throw invalidParameter('email', 'Enter an email address such as name@example.com.');
  return email;
}
