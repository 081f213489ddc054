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
import type { Role } from '../moderation/moderation.table.ts';
import * as repo from './login.repository.ts';
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

/** A sign-in link works once, within a day. */
const LINK_TTL_MS = 24 * 60 * 60_000;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME_MAX_LENGTH = 100;

export interface LoginOptions {
  signups: Signups;
  /** scrypt's parameters for new hashes (password.ts's default unless given; tests make it cheap). */
  passwordCost?: ScryptCost | undefined;
}

export class LoginService {
  private readonly db: Db;
  private readonly clock: Clock;
  readonly signups: Signups;
  private readonly cost: ScryptCost;

  constructor(db: Db, clock: Clock, options: LoginOptions) {
    this.db = db;
    this.clock = clock;
    this.signups = options.signups;
    this.cost = options.passwordCost ?? DEFAULT_SCRYPT_COST;
  }

  /** A new account from the sign-up form; refused while SIGNUPS=closed. */
  async signUp(input: { email: string; password: string; name: string }): Promise<WebUser> {
    if (this.signups === 'closed') {
      throw new AppError(
        'signups_closed',
        'Sign-ups are closed on this server; ask its operator for an account.',
      );
    }
    return this.createUser(input);
  }

  /** Also the operator's `tributary users create --email`, which SIGNUPS does not restrict. */
  async createUser(input: { email: string; password: string; name: string }): Promise<WebUser> {
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
      await repo.insertUserWithLogin(this.db, { ...user, created_at: this.clock.now() });
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    return { id: user.id, name, email };
  }

  /**
   * The user whose email and password these are. Refused without checking the password once
   * the account or the address has failed too often (rate_limit_exceeded).
   */
  async signIn(input: { email: string; password: string; address: string }): Promise<WebUser> {
    const email = input.email.trim().toLowerCase();
    const account: Throttle = { bucket: `account:${email}`, limit: ACCOUNT_FAILURE_LIMIT };
    const buckets = [account, { bucket: `address:${input.address}`, limit: ADDRESS_FAILURE_LIMIT }];
    await this.refuseWhenThrottled(
      buckets,
      'Too many failed sign-ins for this account or from this address. Wait 15 minutes and try again.',
    );
    const user = email.length > 0 ? await repo.findLoginByEmail(this.db, email) : undefined;
    const ok = await verifyPassword(input.password, user?.password_hash ?? null, this.cost);
    if (!user || !ok) {
      await this.recordFailure(buckets);
      throw new AppError('invalid_credentials', 'The email or the password is not right.');
    }
    await repo.clearFailures(this.db, account.bucket);
    return { id: user.id, name: user.name, email: user.email };
  }

  async findUser(id: string): Promise<WebUser | undefined> {
    const user = await repo.findLoginById(this.db, id);
    return user && { id: user.id, name: user.name, email: user.email };
  }

  /**
   * A signed-in user's new password; the current one is asked for when there is one. Wrong
   * current passwords are counted like failed sign-ins of the account (ACCOUNT_FAILURE_LIMIT in
   * the window), so a session left open or stolen cannot be used to guess the password.
   */
  async changePassword(userId: string, current: string, next: string): Promise<void> {
    await this.confirmPassword(userId, current);
    await this.setLogin(userId, { password: next });
  }

  /**
   * A signed-in user's new email, confirmed with their password (counted like changePassword's
   * guesses). The one place an email changes: verifying the new address before it counts
   * (a link sent to it) is to be added here.
   */
  async changeEmail(userId: string, input: { email: string; password: string }): Promise<WebUser> {
    const email = normalizeEmail(input.email);
    await this.confirmPassword(userId, input.password, true);
    try {
      if (!(await repo.updateLogin(this.db, userId, { email }))) throw notFound('user', userId);
    } catch (error) {
      if (isUniqueViolation(error)) throw emailTaken();
      throw error;
    }
    const user = await this.findUser(userId);
    if (!user) throw notFound('user', userId);
    return user;
  }

  /**
   * Checks the user's current password, when they have one. Wrong ones are counted like failed
   * sign-ins of the account (ACCOUNT_FAILURE_LIMIT in the window), so a session left open or
   * stolen cannot be used to guess the password.
   */
  private async confirmPassword(userId: string, current: string, required = false): Promise<void> {
    const user = await repo.findLoginById(this.db, userId);
    if (!user) throw notFound('user', userId);
    if (user.password_hash === null) {
      if (!required) return;
      throw new AppError('invalid_credentials', 'Set a password first: it confirms changes to your email.');
    }
    const guesses: Throttle = { bucket: `password-change:${userId}`, limit: ACCOUNT_FAILURE_LIMIT };
    await this.refuseWhenThrottled(
      [guesses],
      'Too many wrong current passwords for this account. Wait 15 minutes and try again.',
    );
    if (!(await verifyPassword(current, user.password_hash, this.cost))) {
      await this.recordFailure([guesses]);
      throw new AppError('invalid_credentials', 'The current password is not right.', 'current_password');
    }
    await repo.clearFailures(this.db, guesses.bucket);
  }

  /** The operator's `tributary users set-password` (and an email, for a user without one). */
  async setLogin(userId: string, login: { email?: string; password: string }): Promise<WebUser> {
    checkPassword(login.password);
    const email = login.email === undefined ? undefined : normalizeEmail(login.email);
    try {
      const updated = await repo.updateLogin(this.db, userId, {
        ...(email === undefined ? {} : { email }),
        password_hash: await hashPassword(login.password, this.cost),
      });
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

  /** rate_limit_exceeded, before any password is checked, once a bucket is at its limit. */
  private async refuseWhenThrottled(buckets: readonly Throttle[], message: string): Promise<void> {
    const since = this.clock.now() - SIGN_IN_WINDOW_MS;
    const failures = await Promise.all(
      buckets.map(({ bucket }) => repo.countFailures(this.db, bucket, since)),
    );
    if (buckets.some(({ limit }, i) => (failures[i] ?? 0) >= limit)) {
      throw new AppError('rate_limit_exceeded', message);
    }
  }

  private async recordFailure(buckets: readonly Throttle[]): Promise<void> {
    const now = this.clock.now();
    for (const { bucket } of buckets) await repo.recordFailure(this.db, bucket, now, now - SIGN_IN_WINDOW_MS);
  }
}

/** A count of failures over the sliding window, refused at `limit`. */
interface Throttle {
  bucket: string;
  limit: number;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_PATTERN.test(email)) {
    throw invalidParameter('email', 'Enter an email address such as name@example.com.');
  }
  return email;
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
