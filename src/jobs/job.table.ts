import type { Selectable } from 'kysely';

/** pending (due at run_after) -> running (leased) -> done | failed; a lapsed lease is pending again. */
export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

export interface MediaJobTable {
  id: string;
  /** Which handler runs it (src/jobs/job-runner.ts's registry), e.g. `upload.process`. */
  kind: string;
  /** The id of what the job works on (an upl_ id). */
  subject_id: string;
  status: JobStatus;
  /** Claims so far, the current one included. */
  attempts: number;
  max_attempts: number;
  run_after: number;
  /** While running: when the lease lapses unless renewed (the worker renews it as it works). */
  locked_until: number | null;
  lease_token: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export type MediaJobRow = Selectable<MediaJobTable>;
