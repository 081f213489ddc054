// The operator's powers over accounts and content, in one place the admin area and the CLI
// share: roles, suspension and reinstatement, takedowns and restores, viewers' reports, and
// the audit log every one of these actions writes (who, what, why, when) in the transaction
// that makes the change.
//
// How a suspension takes effect everywhere within a second, in every process (nothing here
// has to reach another process itself: each reads the row the change wrote):
// - pages: the user's sessions are deleted here, and every page request reads its session
//   from the database; signing in again shows only why (src/web/admin/suspended.ts);
// - API keys: the key lookup refuses keys of a suspended account, and a process reuses a
//   lookup for at most half a second (src/accounts/account.service.ts);
// - content: every read that serves viewers or the API carries the standing condition
//   (src/accounts/standing.ts), media answers included (src/media/withheld-media.ts);
// - live streams are ended here (stream.ended), and the ingest holding the encoder checks its
//   live streams' standing several times a second and cuts it off (src/ingest/moderation-watch.ts);
//   a reconnecting encoder is refused (src/ingest/admission.ts).
import type { Db } from '../db/database.ts';
import type { KeysetPosition } from '../db/keyset.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError, invalidParameter, isStateConflict, notFound } from '../shared/errors.ts';
import { newId } from '../shared/ids.ts';
import type { StreamService } from '../streams/stream.service.ts';
import type { MailOutbox } from '../mail/mail-outbox.ts';
import * as repo from './moderation.repository.ts';
import type {
  AuditAction,
  AuditRow,
  ReportRow,
  ReportStatus,
  ReportTargetKind,
  Role,
} from './moderation.table.ts';

export const REASON_MAX_LENGTH = 1000;
/** A viewer's open reports at once: enough for anyone, bounded for a script. */
export const OPEN_REPORTS_PER_REPORTER = 50;

/** Who acts: an operator signed in to the admin area, or the CLI (actor null). */
export interface Actor {
  id: string | null;
  name: string;
}

export const CLI_ACTOR: Actor = { id: null, name: 'cli' };

/** What the creator is told of an action on their account or content. */
export interface CreatorNotice {
  userId: string;
  name: string;
  email: string | null;
  subject: string;
  /** Paragraphs, blank-line separated. */
  text: string;
}

export interface ModerationOptions {
  /** Where notices are mailed (the `account-notice` template), in the action's transaction. */
  mail?: Pick<MailOutbox, 'enqueue'>;
  /** The server's log: each notice is also a line there (nothing by default). */
  log?: (fields: Record<string, unknown>, message: string) => void;
}

export class ModerationService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly streams: StreamService;
  private readonly mail: Pick<MailOutbox, 'enqueue'> | undefined;
  private log: (fields: Record<string, unknown>, message: string) => void;

  constructor(db: Db, clock: Clock, streams: StreamService, options: ModerationOptions = {}) {
    this.db = db;
    this.clock = clock;
    this.streams = streams;
    this.mail = options.mail;
    this.log = options.log ?? (() => undefined);
  }

  /** The server's logger, once it exists (src/server.ts). */
  useLog(log: (fields: Record<string, unknown>, message: string) => void): void {
    this.log = log;
  }

  // Roles.

  /** Finds an account by its usr_ id or its email. */
  async findUser(idOrEmail: string): Promise<repo.UserStanding> {
    const user = idOrEmail.startsWith('usr_')
      ? await repo.findUserStanding(this.db, idOrEmail)
      : await repo.findUserByEmail(this.db, idOrEmail);
    if (!user) throw notFound('user', idOrEmail);
    return user;
  }

  async setRole(actor: Actor, idOrEmail: string, role: Role): Promise<repo.UserStanding> {
    const user = await this.findUser(idOrEmail);
    if (user.role === role) return user;
    await this.db.transaction().execute(async (trx) => {
      await repo.setRole(trx, user.id, role);
      await this.audit(trx, actor, 'user.set_role', 'user', user.id, `role ${user.role} -> ${role}`);
    });
    return { ...user, role };
  }

  async isOperator(userId: string): Promise<boolean> {
    return (await repo.findUserStanding(this.db, userId))?.role === 'operator';
  }

  // Accounts.

  async searchUsers(query: string, take = 50): Promise<repo.UserStanding[]> {
    return repo.searchUsers(this.db, query.slice(0, 200), take);
  }

  /**
   * Suspends an account: its sessions end, its API keys stop, its live streams end, its
   * content leaves every page and list, and its creator is told why. Operators are demoted
   * from the CLI before they can be suspended.
   */
  async suspend(actor: Actor, userId: string, reason: string): Promise<void> {
    const why = checkReason(reason);
    const user = await repo.findUserStanding(this.db, userId);
    if (!user) throw notFound('user', userId);
    if (user.role === 'operator') {
      throw new AppError(
        'state_conflict',
        `${user.name} is an operator; make them a user first (tributary users set-role ${user.id} user).`,
      );
    }
    if (user.suspended_at !== null)
      throw new AppError('state_conflict', `${user.name} is already suspended.`);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.suspendUser(trx, userId, now, why))) {
        throw new AppError('state_conflict', `${user.name} is already suspended.`);
      }
      await repo.deleteSessionsOf(trx, userId);
      await repo.resolveOpenReports(
        trx,
        { creatorId: userId },
        { status: 'actioned', at: now, by: actor.id, what: 'suspend' },
      );
      await this.audit(trx, actor, 'user.suspend', 'user', userId, why);
      await this.tellCreator(trx, {
        userId,
        name: user.name,
        email: user.email,
        subject: 'Your account has been suspended',
        text: `An operator suspended your account. Your streams and videos are no longer shown, and your API keys no longer work.\n\nReason: ${why}`,
      });
    });
    await this.endLiveStreams(await repo.liveStreamIds(this.db, userId));
  }

  async reinstate(actor: Actor, userId: string, reason: string): Promise<void> {
    const why = checkReason(reason);
    const user = await repo.findUserStanding(this.db, userId);
    if (!user) throw notFound('user', userId);
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.reinstateUser(trx, userId))) {
        throw new AppError('state_conflict', `${user.name} is not suspended.`);
      }
      await this.audit(trx, actor, 'user.reinstate', 'user', userId, why);
      await this.tellCreator(trx, {
        userId,
        name: user.name,
        email: user.email,
        subject: 'Your account has been reinstated',
        text: `An operator reinstated your account: your content is shown again and your API keys work again.\n\nReason: ${why}`,
      });
    });
  }

  // Streams and videos.

  async listContent(
    kind: repo.ContentKind,
    filter: { query?: string; creatorId?: string; takenDownOnly?: boolean },
    take = 50,
  ): Promise<repo.ContentItem[]> {
    return repo.listContent(this.db, kind, { ...filter, query: filter.query?.slice(0, 200) ?? '' }, take);
  }

  async findContent(kind: repo.ContentKind, id: string): Promise<repo.ContentItem> {
    const item = await repo.findContent(this.db, kind, id);
    if (!item) throw notFound(kind, id);
    return item;
  }

  /** Takes one stream or video down: gone from every page and list; a live stream ends. */
  async takedown(actor: Actor, kind: repo.ContentKind, id: string, reason: string): Promise<void> {
    const why = checkReason(reason);
    const item = await this.findContent(kind, id);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.setTakedown(trx, kind, id, { at: now, reason: why }))) {
        throw new AppError('state_conflict', `This ${kind} is already taken down.`);
      }
      await repo.resolveOpenReports(
        trx,
        { kind, id },
        { status: 'actioned', at: now, by: actor.id, what: 'takedown' },
      );
      await this.audit(trx, actor, `${kind}.takedown`, kind, id, why);
      const creator = await repo.findUserStanding(trx, item.creator_id);
      await this.tellCreator(trx, {
        userId: item.creator_id,
        name: creator?.name ?? '',
        email: creator?.email ?? null,
        subject: `Your ${kind} "${item.title}" has been taken down`,
        text: `An operator took down your ${kind} "${item.title}" (${id}); it is no longer shown.\n\nReason: ${why}`,
      });
    });
    if (kind === 'stream' && item.status === 'live') await this.endLiveStreams([id]);
  }

  async restore(actor: Actor, kind: repo.ContentKind, id: string, reason: string): Promise<void> {
    const why = checkReason(reason);
    const item = await this.findContent(kind, id);
    await this.db.transaction().execute(async (trx) => {
      if (!(await repo.setTakedown(trx, kind, id, null))) {
        throw new AppError('state_conflict', `This ${kind} is not taken down.`);
      }
      await this.audit(trx, actor, `${kind}.restore`, kind, id, why);
      const creator = await repo.findUserStanding(trx, item.creator_id);
      await this.tellCreator(trx, {
        userId: item.creator_id,
        name: creator?.name ?? '',
        email: creator?.email ?? null,
        subject: `Your ${kind} "${item.title}" has been restored`,
        text: `An operator restored your ${kind} "${item.title}" (${id}).\n\nReason: ${why}`,
      });
    });
  }

  // Reports.

  /**
   * A signed-in viewer reports a stream, a video or a channel (by its creator's usr_ id) they
   * can see. Reporting the same thing again while the first report is open changes nothing.
   */
  async report(
    reporterId: string,
    input: { kind: ReportTargetKind; id: string; reason: string },
  ): Promise<ReportRow> {
    const reason = checkReason(input.reason, 'reason');
    const creatorId = await this.creatorOfShown(input.kind, input.id);
    if (creatorId === undefined) throw notFound(input.kind === 'channel' ? 'user' : input.kind, input.id);
    if (creatorId === reporterId)
      throw invalidParameter('id', 'You cannot report your own channel or content.');
    const existing = await repo.findOpenReportBy(this.db, reporterId, input.id);
    if (existing) return existing;
    if ((await repo.countOpenReportsBy(this.db, reporterId)) >= OPEN_REPORTS_PER_REPORTER) {
      throw new AppError(
        'rate_limit_exceeded',
        `You have ${OPEN_REPORTS_PER_REPORTER} reports waiting for an operator; wait until some are handled.`,
      );
    }
    const row: ReportRow = {
      id: newId('rpt'),
      reporter_id: reporterId,
      target_kind: input.kind,
      target_id: input.id,
      creator_id: creatorId,
      reason,
      status: 'open',
      created_at: this.clock.now(),
      resolved_at: null,
      resolved_by: null,
      resolution: null,
    };
    await repo.insertReport(this.db, row);
    return row;
  }

  async listReports(status: ReportStatus, take = 50): Promise<repo.ReportListing[]> {
    return repo.listReports(this.db, status, take);
  }

  async getReport(id: string): Promise<ReportRow> {
    const report = await repo.findReport(this.db, id);
    if (!report) throw notFound('report', id);
    return report;
  }

  async dismissReport(actor: Actor, id: string, reason: string): Promise<void> {
    const why = checkReason(reason);
    await this.getReport(id);
    await this.db.transaction().execute(async (trx) => {
      const resolved = await repo.resolveReport(trx, id, {
        status: 'dismissed',
        at: this.clock.now(),
        by: actor.id,
        what: 'dismissed',
      });
      if (!resolved) throw new AppError('state_conflict', 'This report has already been resolved.');
      await this.audit(trx, actor, 'report.dismiss', 'report', id, why);
    });
  }

  /**
   * Acts on a report: a stream or a video is taken down, a channel's owner suspended. Every
   * open report of the same target is resolved with it.
   */
  async actOnReport(actor: Actor, id: string, reason: string): Promise<void> {
    const report = await this.getReport(id);
    if (report.status !== 'open')
      throw new AppError('state_conflict', 'This report has already been resolved.');
    if (report.target_kind === 'channel') await this.suspend(actor, report.creator_id, reason);
    else await this.takedown(actor, report.target_kind, report.target_id, reason);
    // A target already handled meanwhile leaves this report open: it is settled here.
    await repo.resolveReport(this.db, id, {
      status: 'actioned',
      at: this.clock.now(),
      by: actor.id,
      what: report.target_kind === 'channel' ? 'suspend' : 'takedown',
    });
  }

  // The audit log.

  async auditLog(
    filter: { after?: KeysetPosition | undefined; targetId?: string | undefined },
    take: number,
  ): Promise<AuditRow[]> {
    return repo.listAudit(this.db, filter, take);
  }

  /**
   * Tells a creator what an operator did and why: a mail queued in the action's transaction (so
   * the action and its notice stand or fall together), and a log line. An account without an
   * address (made by the CLI) has the log line only.
   */
  private async tellCreator(trx: Db, notice: CreatorNotice): Promise<void> {
    this.log(
      { userId: notice.userId, to: notice.email, subject: notice.subject },
      `creator notice: ${notice.text}`,
    );
    if (notice.email === null || !this.mail) return;
    await this.mail.enqueue(
      'account-notice',
      notice.email,
      { name: notice.name, subject: notice.subject, paragraphs: notice.text.split('\n\n') },
      { db: trx },
    );
  }

  private async creatorOfShown(kind: ReportTargetKind, id: string): Promise<string | undefined> {
    if (kind === 'channel') {
      const user = await repo.findUserStanding(this.db, id);
      return user && user.suspended_at === null ? user.id : undefined;
    }
    try {
      if (kind === 'stream') return (await this.streams.getShown(id)).creator_id;
      const item = await repo.findContent(this.db, 'video', id);
      return item && item.taken_down_at === null && item.status === 'published' ? item.creator_id : undefined;
    } catch {
      return undefined;
    }
  }

  /** Ends live streams (stream.ended); the ingest cuts their encoders off. */
  private async endLiveStreams(ids: string[]): Promise<void> {
    for (const id of ids) {
      try {
        await this.streams.end(id);
      } catch (error) {
        // Ended meanwhile (its encoder stopped): nothing left to end.
        if (!isStateConflict(error)) throw error;
      }
    }
  }

  private async audit(
    trx: Db,
    actor: Actor,
    action: AuditAction,
    targetKind: 'user' | 'stream' | 'video' | 'report',
    targetId: string,
    reason: string,
  ): Promise<void> {
    await repo.insertAudit(trx, {
      id: newId('aud'),
      actor_id: actor.id,
      actor_name: actor.name,
      action,
      target_kind: targetKind,
      target_id: targetId,
      reason,
      created_at: this.clock.now(),
    });
  }
}

/** A reason: 1 to REASON_MAX_LENGTH characters after trimming. */
function checkReason(reason: string, param = 'reason'): string {
  const trimmed = reason.trim();
  if (trimmed.length === 0) throw new AppError('parameter_missing', 'Give a reason.', param);
  if (Array.from(trimmed).length > REASON_MAX_LENGTH) {
    throw invalidParameter(param, `A reason is at most ${REASON_MAX_LENGTH} characters.`);
  }
  return trimmed;
}
