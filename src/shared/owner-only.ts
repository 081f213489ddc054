// The data folder holds the database, the master secret and every recording: only the
// service's own user may read it. The process creates files owner-only (main.ts sets the
// umask); this takes group and other access away from what an older version, or another
// tool, left behind.
import fs from 'node:fs';

export const OWNER_ONLY_DIR_MODE = 0o700;
export const OWNER_ONLY_FILE_MODE = 0o600;

/** A permission change made (or, with `error`, needed but refused by the system). */
export interface ModeChange {
  path: string;
  from: number;
  to: number;
  error?: string;
}

/**
 * Removes group and other permissions from each path that exists. Only takes access away,
 * never adds it. Missing paths are skipped.
 */
export function tightenToOwnerOnly(paths: readonly string[]): ModeChange[] {
  const changes: ModeChange[] = [];
  for (const file of paths) {
    let mode: number;
    try {
      mode = fs.statSync(file).mode & 0o777;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const tightened = mode & 0o700;
    if (tightened === mode) continue;
    try {
      fs.chmodSync(file, tightened);
      changes.push({ path: file, from: mode, to: tightened });
    } catch (error) {
      // Not ours to change (another owner, a read-only mount): say so, and keep running.
      changes.push({ path: file, from: mode, to: tightened, error: (error as Error).message });
    }
  }
  return changes;
}

export function describeModeChange(change: ModeChange): string {
  const from = change.from.toString(8).padStart(4, '0');
  const to = change.to.toString(8).padStart(4, '0');
  return change.error === undefined
    ? `${change.path} was readable by others (${from}); now owner-only (${to})`
    : `${change.path} is readable by others (${from}) and could not be made owner-only (${to}): ${change.error}`;
}
