// Logins for the web app: sign-up, sign-in with throttling, passwords set by the user or the
// operator, and one-time sign-in links. Knows nothing of HTTP or cookies (sessions are
// session.service.ts, their cookies src/web/session/); failures are AppErrors with catalogued
// codes.
import { createHash } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, invalidParameter, notFound } from '../shared/errors.ts';
import { newId, randomBase62 } from '../shared/ids.ts';
import { normalizeEmail } from './email-address.ts';
import type { Role } from '../moderation/moderation.table.ts';
import * as repo from './login.repository.ts';
import type { Throttle } from './login.repository.ts';
import type { EmailTokenPurpose } from './login.table.ts';
import {
  DEFAULT_SCRYPT_COST,
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  verifyPassword,
  type ScryptCost,
} from './password.ts';

export type Signups = 'open' | 'closed';

/** Who is signed in, as pages show them. */
export interface WebUser {
  id: string;
  name: string;
  email: string | null;
  /** The address was confirmed by a mailed link (or it predates verification). */
  emailVerified: boolean;
  /** `operator` may use the admin area (src/moderation/); read with the session. */
  role?: Role;
  /** Set while the account is suspended: the user may sign in only to read why. */
  suspension?: { at: number; reason: string } | null;
  /** The version of their avatar shown (src/profiles/), read with the session; null without one. */
  avatarVersion?: number | null;
}

/**
 * Failed sign-ins are counted over a sliding window: an account takes ACCOUNT_LIMIT failures
 * (whoever makes them), an address ADDRESS_LIMIT (whichever accounts it tries), then both
 * refuse until the oldest failure leaves the window. A success clears the account's count.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const ACCOUNT_FAILURE_LIMIT = 10;
export const ADDRESS_FAILURE_LIMIT = 30;

/**
 * Sign-ups from one client (an IPv4 address, an IPv6 /64) in SIGNUP_WINDOW_MS: each costs a
 * 32 MiB scrypt hash, so they are counted on their own, under the generic page limit.
 */
export const SIGNUP_WINDOW_MS = 60 * 60_000;
/** SIGNUPS_PER_ADDRESS_PER_HOUR's default. */
export const SIGNUP_ADDRESS_LIMIT = 5;
/** Password-reset requests: per client address and per address asked about, in an hour. */
export const RESET_WINDOW_MS = 60 * 60_000;
export const RESET_CLIENT_LIMIT = 10;
export const RESET_EMAIL_LIMIT = 3;

/** A sign-in link works once, within a day. */
const LINK_TTL_MS = 24 * 60 * 60_000;
/** Mailed links: a reset link works within the hour, a verification link within two days. */
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  reset: 60 * 60_000,
  verify: 48 * 60 * 60_000,
};
/** Used and expired links are kept this long (a second click explains itself), then pruned. */
export const LINK_GRACE_MS = 7 * 24 * 60 * 60_000;
const NAME_MAX_LENGTH = 100;

export interface LoginOptions {
  signups: Signups;
  /** scrypt's parameters for new hashes (password.ts's default unless given; tests make it cheap). */
  passwordCost?: ScryptCost | undefined;
  /** Mail is configured: an account's address must be confirmed before it goes live or publishes. */
  verificationRequired?: boolean | undefined;
  /** Sign-ups one client address may make in an hour (SIGNUP_ADDRESS_LIMIT unless given). */
  signupsPerHour?: number | undefined;
}

export class LoginService {
  private readonly db: Db;
  private readonly clock: Clock;
  readonly signups: Signups;
  private readonly cost: ScryptCost;
  readonly verificationRequired: boolean;
  private readonly signupsPerHour: number;

  constructor(db: Db, clock: Clock, options: LoginOptions) {
    this.signupsPerHour = options.signupsPerHour ?? SIGNUP_ADDRESS_LIMIT;
    this.db = db;
    this.clock = clock;
    this.signups = options.signups;
    this.cost = options.passwordCost ?? DEFAULT_SCRYPT_COST;
    this.verificationRequired = options.verificationRequired ?? false;
  }

  /**
   * Why this user may not go live, publish or create API keys yet (their address is not
   * confirmed, with mail configured), or undefined when they may. Accounts without an address
   * (made by the operator's CLI) may.
   */
  async unverifiedReason(userId: string): Promise<string | undefined> {
    if (!this.verificationRequired) return undefined;
    const user = await repo.findLoginById(this.db, userId);
    if (!user || user.email === null || user.email_verified_at !== null) return undefined;
    return `Confirm your email address first: open the link we mailed to ${user.email} (or ask for another on your account page).`;
  }

  /** unverifiedReason as the API's error (email_unverified, 403). */
  async requireVerified(userId: string): Promise<void> {
    const reason = await this.unverifiedReason(userId);
    if (reason !== undefined) throw new AppError('email_unverified', reason);
  }

  /** A new account from the sign-up form; refused while SIGNUPS=closed. */
  async signUp(input: { email: string; password: string; name: string; address: string }): Promise<WebUser> {
    if (this.signups === 'closed') {
      throw new AppError(
        'signups_closed',
        'Sign-ups are closed on this server; ask its operator for an account.',
      );
    }
    // Counted before the hash is made; a sign-up that fails on its input does not count.
    const attempt = newId('att');
    const now = this.clock.now();
    const counted = await repo.reserveAttempt(
      this.db,
      [{ bucket: `signup:${input.address}`, limit: this.signupsPerHour }],
      attempt,
      now,
      now - SIGNUP_WINDOW_MS,
    );
    if (!counted) {
      throw new AppError(
        'rate_limit_exceeded',
        'Too many accounts were created from this address in the last hour. Try again later.',
      );
    }
    try {
      return await this.createUser(input, { verified: false });
    } catch (error) {
      await repo.releaseAttempt(this.db, attempt);
      throw error;
    }
  }

  /** Also the operator's `tributary users create --email`, which SIGNUPS does not restrict. */
  async createUser(
    input: { email: string; password: string; name: string },
    options: { verified: boolean } = { verified: true },
  ): Promise<WebUser> {
    const email = normalizeEmail(input.email);
    const name = input.name.trim();
    if (name.length === 0 || name.length > NAME_MAX_LENGTH) {
      throw invalidParameter('name', `Enter a name of 1 to ${NAME_MAX_LENGTH} characters.`);
    }
    checkPassword(input.password);
    const user = {
      id: newId('usr'),
      name,
      email,
      password_hash: await hashPassword(input.password, this.cost),
    };
    try {
      const now = this.clock.now();
      await repo.insertUserWithLogin(this.db, {
        ...user,
        created_at: now,
        email_verified_at: options.verified ? now : null,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    return { id: user.id, name, email, emailVerified: options.verified };
  }

  /**
   * The user whose email and password these are. Refused without checking the password once
   * the account or the address has failed too often (rate_limit_exceeded).
   */
  async signIn(input: { email: string; password: string; address: string }): Promise<WebUser> {
    const email = canonicalOrRaw(input.email);
    const account: Throttle = { bucket: `account:${email}`, limit: ACCOUNT_FAILURE_LIMIT };
    const buckets = [account, { bucket: `address:${input.address}`, limit: ADDRESS_FAILURE_LIMIT }];
    const attempt = await this.reserve(
      buckets,
      'Too many failed sign-ins for this account or from this address. Wait 15 minutes and try again.',
    );
    const user = email.length > 0 ? await repo.findLoginByEmail(this.db, email) : undefined;
    const ok = await verifyPassword(input.password, user?.password_hash ?? null, this.cost);
    // A failure's rows stay (reserved before the check); a success clears the account's.
    if (!user || !ok) throw new AppError('invalid_credentials', 'The email or the password is not right.');
    await repo.releaseAttempt(this.db, attempt);
    await repo.clearFailures(this.db, account.bucket);
    return toWebUser(user);
  }

  async findUser(id: string): Promise<WebUser | undefined> {
    const user = await repo.findLoginById(this.db, id);
    return user && toWebUser(user);
  }

  /**
   * A signed-in user's new password; the current one is asked for when there is one. Wrong
   * current passwords are counted like failed sign-ins of the account (ACCOUNT_FAILURE_LIMIT in
   * the window), so a session left open or stolen cannot be used to guess the password.
   */
  async changePassword(userId: string, current: string, next: string): Promise<void> {
    const user = await repo.findLoginById(this.db, userId);
    if (!user) throw notFound('user', userId);
    if (user.password_hash !== null) {
      await this.checkCurrentPassword(user, current);
    }
    await this.setLogin(userId, { password: next });
  }

  /**
   * The current password, counted like failed sign-ins of the account (ACCOUNT_FAILURE_LIMIT
   * in the window) and reserved before it is checked.
   */
  private async checkCurrentPassword(user: repo.LoginUser, current: string): Promise<void> {
    const guesses: Throttle = { bucket: `password-change:${user.id}`, limit: ACCOUNT_FAILURE_LIMIT };
    const attempt = await this.reserve(
      [guesses],
      'Too many wrong current passwords for this account. Wait 15 minutes and try again.',
    );
    if (!(await verifyPassword(current, user.password_hash, this.cost))) {
      throw new AppError('invalid_credentials', 'The current password is not right.', 'current_password');
    }
    await repo.releaseAttempt(this.db, attempt);
    await repo.clearFailures(this.db, guesses.bucket);
  }

  /**
   * A new address for a signed-in user, after their current password. With verification on
   * (`verify`), the address is not changed: a link is made for it, and the change happens when
   * the link is used (returned: the caller mails it). Without, it is changed at once.
   */
  async changeEmail(
    userId: string,
    input: { current: string; email: string; verify: boolean },
  ): Promise<{ token: string; email: string } | undefined> {
    const email = normalizeEmail(input.email);
    const user = await repo.findLoginById(this.db, userId);
    if (!user) throw notFound('user', userId);
    if (user.password_hash !== null) await this.checkCurrentPassword(user, input.current);
    const owner = await repo.findLoginByEmail(this.db, email);
    if (owner && owner.id !== userId) throw emailTaken();
    if (!input.verify) {
      await this.updateEmail(userId, email, this.clock.now());
      return undefined;
    }
    return { token: await this.createEmailToken(userId, 'verify', email), email };
  }

  /** A single-use link's token for this user and purpose; older unused ones stop working. */
  async createEmailToken(userId: string, purpose: EmailTokenPurpose, email: string): Promise<string> {
    const token = randomBase62(32);
    const now = this.clock.now();
    await repo.insertEmailToken(this.db, {
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      email,
      created_at: now,
      expires_at: now + EMAIL_TOKEN_TTL_MS[purpose],
    });
    return token;
  }

  /** Whether a link works (without using it: the page that asks to confirm). */
  async peekEmailToken(token: string, purpose: EmailTokenPurpose): Promise<WebUser | undefined> {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    const found = await repo.findEmailToken(this.db, hashToken(token), purpose, this.clock.now());
    return found && this.findUser(found.user_id);
  }

  /** Uses a verification link: the address it names becomes the account's, confirmed. */
  async verifyEmail(token: string): Promise<WebUser | undefined> {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    const now = this.clock.now();
    const used = await repo.useEmailToken(this.db, hashToken(token), 'verify', now);
    if (!used) return undefined;
    await this.updateEmail(used.user_id, used.email, now);
    return this.findUser(used.user_id);
  }

  /**
   * Asks for a reset link: the user and token when the address has an account (the caller
   * mails it), undefined when it has none or was asked about too often; the caller answers
   * both alike. Throttled per client (rate_limit_exceeded) and, silently, per address.
   */
  async requestPasswordReset(
    rawEmail: string,
    client: string,
  ): Promise<{ user: WebUser; email: string; token: string } | undefined> {
    const email = normalizeEmail(rawEmail);
    const now = this.clock.now();
    const since = now - RESET_WINDOW_MS;
    const perClient = await repo.reserveAttempt(
      this.db,
      [{ bucket: `reset-client:${client}`, limit: RESET_CLIENT_LIMIT }],
      newId('att'),
      now,
      since,
    );
    if (!perClient) {
      throw new AppError(
        'rate_limit_exceeded',
        'Too many password resets were asked for from this address. Try again in an hour.',
      );
    }
    const perEmail = await repo.reserveAttempt(
      this.db,
      [{ bucket: `reset-email:${email}`, limit: RESET_EMAIL_LIMIT }],
      newId('att'),
      now,
      since,
    );
    const user = await repo.findLoginByEmail(this.db, email);
    if (!perEmail || !user) return undefined;
    return { user: toWebUser(user), email, token: await this.createEmailToken(user.id, 'reset', email) };
  }

  /** Uses a reset link: the new password is set; the user, or undefined for a dead link. */
  async resetPassword(token: string, password: string): Promise<WebUser | undefined> {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    checkPassword(password);
    const hash = await hashPassword(password, this.cost);
    const now = this.clock.now();
    const used = await repo.useEmailToken(this.db, hashToken(token), 'reset', now);
    if (!used) return undefined;
    await repo.updateLogin(this.db, used.user_id, { password_hash: hash });
    await repo.voidEmailTokens(this.db, used.user_id, 'reset', now);
    // The link proved the address: a reset also confirms it.
    const user = await repo.findLoginById(this.db, used.user_id);
    if (user && user.email === used.email && user.email_verified_at === null)
      await repo.updateLogin(this.db, used.user_id, { email_verified_at: now });
    return this.findUser(used.user_id);
  }

  /** The periodic upkeep: forgets spent failures, sessions and links (login.repository.ts). */
  async prune(): Promise<repo.Pruned> {
    const now = this.clock.now();
    return repo.pruneLogins(
      this.db,
      now,
      now - Math.max(SIGN_IN_WINDOW_MS, SIGNUP_WINDOW_MS, RESET_WINDOW_MS),
      LINK_GRACE_MS,
    );
  }

  private async updateEmail(userId: string, email: string, verifiedAt: number): Promise<void> {
    try {
      await repo.updateLogin(this.db, userId, { email, email_verified_at: verifiedAt });
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
  }

  /** The operator's `tributary users set-password` (and an email, for a user without one). */
  async setLogin(
    userId: string,
    login: { email?: string; password: string; verified?: boolean },
  ): Promise<WebUser> {
    checkPassword(login.password);
    const email = login.email === undefined ? undefined : normalizeEmail(login.email);
    try {
      const updated = await repo.updateLogin(this.db, userId, {
        ...(email === undefined
          ? {}
          : { email, email_verified_at: login.verified === false ? null : this.clock.now() }),
        password_hash: await hashPassword(login.password, this.cost),
      });
      // A new password: reset links sent before it stop working.
      await repo.voidEmailTokens(this.db, userId, 'reset', this.clock.now());
      if (!updated) throw notFound('user', userId);
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    const user = await this.findUser(userId);
    if (!user) throw notFound('user', userId);
    return user;
  }

  /** A one-time sign-in link's token (shown once; only its hash is stored). */
  async createSignInLink(userId: string): Promise<string> {
    const token = randomBase62(32);
    const now = this.clock.now();
    await repo.insertSignInLink(this.db, {
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now,
      expires_at: now + LINK_TTL_MS,
    });
    return token;
  }

  /** Whose unused link this is, without using it (the page that asks to confirm). */
  async peekSignInLink(token: string): Promise<WebUser | undefined> {
    const link = await repo.findSignInLink(this.db, hashToken(token), this.clock.now());
    return link && this.findUser(link.user_id);
  }

  /** Uses the link: the user it signs in, or undefined when it is unknown, used or expired. */
  async redeemSignInLink(token: string): Promise<WebUser | undefined> {
    const userId = await repo.useSignInLink(this.db, hashToken(token), this.clock.now());
    return userId === undefined ? undefined : this.findUser(userId);
  }

  /**
   * Counts the attempt before any password is checked, in one step with the check
   * (rate_limit_exceeded once a bucket is at its limit): its id, to take it back on success.
   */
  private async reserve(buckets: readonly Throttle[], message: string): Promise<string> {
    const attempt = newId('att');
    const now = this.clock.now();
    if (!(await repo.reserveAttempt(this.db, buckets, attempt, now, now - SIGN_IN_WINDOW_MS))) {
      throw new AppError('rate_limit_exceeded', message);
    }
    return attempt;
  }
}

const TOKEN_PATTERN = /^[0-9A-Za-z]{32}$/;

function toWebUser(user: repo.LoginUser): WebUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    emailVerified: user.email === null || user.email_verified_at !== null,
  };
}

/** What a sign-in form's address is looked up as: normalized when it is an address at all. */
function canonicalOrRaw(raw: string): string {
  try {
    return normalizeEmail(raw);
  } catch {
    return raw.trim().toLowerCase();
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw invalidParameter(
      'password',
      `Choose a password of ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.`,
    );
  }
}

function emailTaken(): AppError {
  return new AppError('email_taken', 'An account with this email already exists; sign in instead.', 'email');
}
