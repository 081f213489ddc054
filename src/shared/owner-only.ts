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
 * Removes group and other permissions from each path that exists, keeping the owner's and the
 * special bits. Only takes access away, never adds it. Missing paths are skipped, and so is a
 * shared scratch folder (sticky bit, as /tmp has) named as the data folder: closing it would
 * break everyone else's use of it, so that is reported instead.
 */
export function tightenToOwnerOnly(paths: readonly string[]): ModeChange[] {
  const changes: ModeChange[] = [];
  for (const file of paths) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    const mode = stat.mode & 0o7777;
    const tightened = mode & ~0o077;
    if (tightened === mode) continue;
    if (stat.isDirectory() && (mode & 0o1000) !== 0) {
      changes.push({
        path: file,
        from: mode,
        to: tightened,
        error: 'a shared folder; give the data a folder of its own',
      });
      continue;
    }
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
