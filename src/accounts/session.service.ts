// Server-side sessions for the web app: the cookie holds a random token, the database its
// SHA-256, so signing out (here or everywhere) ends a session at once and a copy of the table
// signs nobody in. Expiry slides: a session unused for SESSION_IDLE_MS ends; one in use is
// extended, at most once per EXTEND_EVERY_MS so a busy page does not write on every request,
// and never past SESSION_MAX_AGE_MS after it started (an absolute lifetime).
// CSRF tokens are HMACs of what the request is bound to (the session, or a visitor's
// pre-session cookie), so they need no storage. Knows nothing of HTTP: the cookies, their
// flags and the CSRF hook are the web app's (src/web/session/).
import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { randomBase62 } from '../shared/ids.ts';
import type { WebUser } from './login.service.ts';
import * as repo from './session.repository.ts';

export const SESSION_IDLE_MS = 14 * 24 * 60 * 60_000;
/** However much it is used, a session ends this long after it started: sign in again then. */
export const SESSION_MAX_AGE_MS = 90 * 24 * 60 * 60_000;
const EXTEND_EVERY_MS = 10 * 60_000;
const TOKEN_PATTERN = /^[0-9A-Za-z]{32,64}$/;

export interface ActiveSession {
  /** The stored id (the token's hash). */
  id: string;
  user: WebUser;
  /** Set when this request moved the expiry forward: the cookie is sent again with it. */
  extendedUntil: number | undefined;
}

export class SessionService {
  private readonly db: Db;
  private readonly clock: Clock;
  // A KeyObject is imported once; a Buffer would be imported again on every page's CSRF token.
  private readonly csrfKey: KeyObject;

  constructor(db: Db, clock: Clock, csrfKey: Buffer) {
    this.db = db;
    this.clock = clock;
    this.csrfKey = createSecretKey(csrfKey);
  }

  /** Starts a session; the token goes into the cookie and nowhere else. */
  async start(userId: string): Promise<{ token: string; expiresAt: number }> {
    const token = randomBase62(43);
    const now = this.clock.now();
    const expiresAt = now + SESSION_IDLE_MS;
    await repo.insertSession(this.db, {
      id: hashToken(token),
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
    });
    return { token, expiresAt };
  }

  /** The session a cookie's token names, if it is live; extends it when due. */
  async resume(token: string): Promise<ActiveSession | undefined> {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    const now = this.clock.now();
    const row = await repo.findSession(this.db, hashToken(token), now, now - SESSION_MAX_AGE_MS);
    if (!row) return undefined;
    let extendedUntil: number | undefined;
    const lastPossible = row.created_at + SESSION_MAX_AGE_MS;
    if (now - row.last_seen_at >= EXTEND_EVERY_MS && row.expires_at < lastPossible) {
      extendedUntil = Math.min(now + SESSION_IDLE_MS, lastPossible);
      await repo.extendSession(this.db, row.id, now, extendedUntil);
    }
    const suspension =
      row.suspended_at === null ? null : { at: row.suspended_at, reason: row.suspension_reason ?? '' };
    const user = {
      id: row.user_id,
      name: row.name,
      email: row.email,
      emailVerified: row.email === null || row.email_verified_at !== null,
      role: row.role,
      suspension,
      avatarVersion: row.avatar_version,
    };
    return { id: row.id, user, extendedUntil };
  }

  async end(token: string): Promise<void> {
    if (TOKEN_PATTERN.test(token)) await repo.deleteSession(this.db, hashToken(token));
  }

  /** Sign-out everywhere: every session of the user, this one included. */
  async endAll(userId: string): Promise<void> {
    await repo.deleteUserSessions(this.db, userId, this.clock.now());
  }

  /** After a password change: the user's other sessions end, the one that changed it stays. */
  async endOthers(userId: string, keepToken: string): Promise<void> {
    await repo.deleteOtherSessions(this.db, userId, hashToken(keepToken));
  }

  /** A fresh value for a visitor's pre-session cookie, which their CSRF token is bound to. */
  newPreSession(): string {
    return randomBase62(32);
  }

  /** The CSRF token of a binding: `session:<id>` or `visitor:<pre-session value>`. */
  csrfToken(binding: string): string {
    return createHmac('sha256', this.csrfKey).update(binding).digest('base64url');
  }

  csrfTokenMatches(binding: string, presented: string): boolean {
    const expected = Buffer.from(this.csrfToken(binding));
    const actual = Buffer.from(presented);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
