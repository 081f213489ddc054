// Moderation's columns and tables (migration 2026-11-26-055).
import type { ColumnType, Selectable } from 'kysely';

export type Role = 'user' | 'operator';

/** An account's role and standing. */
export interface UserStandingColumns {
  /** `operator` may use the admin area; set from the CLI (`tributary users set-role`). */
  role: ColumnType<Role, Role | undefined, Role>;
  /** When an operator suspended the account; null while it is in good standing. */
  suspended_at: ColumnType<number | null, number | null | undefined, number | null>;
  suspension_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A stream's or a video's takedown. */
export interface TakedownColumns {
  taken_down_at: ColumnType<number | null, number | null | undefined, number | null>;
  takedown_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export type ReportTargetKind = 'stream' | 'video' | 'channel';
export type ReportStatus = 'open' | 'dismissed' | 'actioned';

export interface ReportTable {
  id: string;
  reporter_id: string;
  target_kind: ReportTargetKind;
  /** A str_, vid_ or (for a channel) usr_ id. */
  target_id: string;
  /** Whose content it is (the channel's owner for a channel). */
  creator_id: string;
  reason: string;
  status: ReportStatus;
  created_at: number;
  resolved_at: number | null;
  /** The operator who resolved it. */
  resolved_by: string | null;
  /** What was done: `dismissed`, or the action taken (`suspend`, `takedown`). */
  resolution: string | null;
}

export type AuditAction =
  | 'user.suspend'
  | 'user.reinstate'
  | 'user.set_role'
  | 'stream.takedown'
  | 'stream.restore'
  | 'video.takedown'
  | 'video.restore'
  | 'report.dismiss';

export interface AuditLogTable {
  id: string;
  /** The operator's account; null for the CLI (an operator at the server's terminal). */
  actor_id: string | null;
  /** The operator's name as it was then, or `cli`. */
  actor_name: string;
  action: AuditAction;
  target_kind: 'user' | 'stream' | 'video' | 'report';
  target_id: string;
  reason: string;
  created_at: number;
}

export type ReportRow = Selectable<ReportTable>;
export type AuditRow = Selectable<AuditLogTable>;
