// Checkpoints a SQLite database's write-ahead log from a thread of its own (issue 29). SQLite's
// automatic checkpoint runs inside whichever commit takes the log past its threshold (1,000
// pages), on the committing thread: the event loop then waits while the pages are copied and the
// log and database are synced (about 16 ms on this machine type's disk, every few dozen commits
// under write load: in the delivery bench the commits' own time fell from 2.0 to 1.3 s of SQLite
// time with the checkpoints moved off the thread). Every request in flight waited with it.
//
// The service's connection keeps an automatic threshold ten times larger as a backstop, should
// the thread fall behind or stop (then the usual threshold is restored).
import { Worker } from 'node:worker_threads';
import type { DatabaseSync } from 'node:sqlite';

/** SQLite's default automatic checkpoint threshold, in pages. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** The service's own threshold while the thread checkpoints: only a backstop. */
const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;
const DEFAULT_INTERVAL_MS = 100;

// The thread: its own connection to the file, a PASSIVE checkpoint on an interval. PASSIVE copies
// the frames no reader still needs and never waits for, or blocks, the service's readers and
// writers; a checkpoint another process is running is "busy" (busy_timeout 0) and skipped, as is
// a transient error: the next tick tries again, and the service's threshold is the backstop.
const CHECKPOINT_THREAD_SOURCE = `
const { DatabaseSync } = require('node:sqlite');
const { parentPort, workerData } = require('node:worker_threads');
const database = new DatabaseSync(workerData.file);
database.exec('PRAGMA busy_timeout = 0');
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch {}
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  database.close();
  parentPort.close();
});
`;

export interface WalCheckpointer {
  /** Stops the thread; the connection's threshold goes back to SQLite's default. */
  close(): Promise<void>;
}

export function startWalCheckpointer(
  connection: DatabaseSync,
  file: string,
  intervalMs = DEFAULT_INTERVAL_MS,
): WalCheckpointer {
  connection.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  // Plain JavaScript, evaluated: a .ts file would load the type stripper into the thread too
  // (about 10 MB of the process's memory for a dozen lines).
  const worker = new Worker(CHECKPOINT_THREAD_SOURCE, {
    eval: true,
    workerData: { file, intervalMs },
    resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 1, stackSizeMb: 1 },
  });
  // A background chore: it never keeps the process alive on its own.
  worker.unref();
  let stopped = false;
  const restoreDefault = () => {
    if (connection.isOpen) connection.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  };
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      if (!stopped) restoreDefault();
      resolve();
    });
  });
  // An error ends the thread ('exit' follows): the connection checkpoints for itself again.
  worker.on('error', () => undefined);
  return {
    close: async () => {
      if (stopped) return;
      stopped = true;
      // Held again while it stops: an unreferenced thread would let the process end under a
      // caller awaiting this.
      worker.ref();
      worker.postMessage('stop');
      await exited;
      restoreDefault();
    },
  };
}
