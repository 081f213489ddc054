// What a change to a stream may touch, by status (docs/api-decisions.md, "Changing and
// deleting"): the details people see (title, description, category, privacy) at any time;
// when and how it goes live (scheduled_at, latency_mode) only before it has, since a live or
// ended stream's start and packaging are facts, no longer plans.
import type { Updateable } from 'kysely';
import { CATEGORIES } from '../shared/categories.ts';
import { invalidParameter, stateConflict } from '../shared/errors.ts';
import type { LatencyMode, Privacy, StreamRow, StreamTable } from './stream.table.ts';

export interface StreamUpdateInput {
  title?: string | undefined;
  /** null clears it. */
  description?: string | null | undefined;
  category?: string | undefined;
  privacy?: Privacy | undefined;
  /** RFC 3339 text (shape checked by the route schema), or null for standby. */
  scheduledAt?: string | null | undefined;
  latencyMode?: LatencyMode | undefined;
}

export interface StreamUpdatePlan {
  /** The columns that change; empty when every value given is the current one. */
  changes: Updateable<StreamTable>;
  /** Whether the change needs the stream still waiting to go live (checked again as it is written). */
  beforeLiveOnly: boolean;
}

/** Checks `input` against the stream as it is now; throws the refusal a client should see. */
export function planStreamUpdate(
  current: StreamRow,
  input: StreamUpdateInput,
  now: number,
): StreamUpdatePlan {
  const beforeLiveOnly = input.scheduledAt !== undefined || input.latencyMode !== undefined;
  if (beforeLiveOnly && current.status !== 'scheduled') {
    const fields = [
      input.scheduledAt !== undefined ? 'scheduled_at' : undefined,
      input.latencyMode !== undefined ? 'latency_mode' : undefined,
    ].filter(Boolean);
    throw stateConflict(
      `Stream ${current.id} is ${current.status}: ${fields.join(' and ')} can only change before it goes live.`,
    );
  }
  const changes: Updateable<StreamTable> = {};
  if (input.title !== undefined) {
    const title = input.title.trim();
    if (title.length === 0) throw invalidParameter('title', "The field 'title' must not be blank.");
    if (title !== current.title) changes.title = title;
  }
  if (input.description !== undefined && input.description !== current.description) {
    changes.description = input.description;
  }
  if (input.category !== undefined && input.category !== current.category) {
    if (!(CATEGORIES as readonly string[]).includes(input.category)) {
      throw invalidParameter('category', `The category must be one of: ${CATEGORIES.join(', ')}.`);
    }
    changes.category = input.category;
  }
  if (input.privacy !== undefined && input.privacy !== current.privacy) changes.privacy = input.privacy;
  if (input.scheduledAt !== undefined) {
    const scheduledAt = parseFuture(input.scheduledAt, now);
    if (scheduledAt !== current.scheduled_at) changes.scheduled_at = scheduledAt;
  }
  if (input.latencyMode !== undefined && input.latencyMode !== current.latency_mode) {
    changes.latency_mode = input.latencyMode;
  }
  return { changes, beforeLiveOnly };
}

function parseFuture(value: string | null, now: number): number | null {
  if (value === null) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) {
    throw invalidParameter('scheduled_at', "The field 'scheduled_at' must be a valid date-time.");
  }
  if (at <= now) throw invalidParameter('scheduled_at', "The field 'scheduled_at' must be in the future.");
  return at;
}
