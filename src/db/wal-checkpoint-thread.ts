// The thread behind wal-checkpointer.ts: its own connection to the database file, checkpointing
// the write-ahead log on an interval. PASSIVE: it copies the frames no reader still needs and
// never waits for, or blocks, the service's readers and writers.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const database = new DatabaseSync(file);
// Another process's checkpoint in progress is "busy": skipped, tried again next time.
database.exec('PRAGMA busy_timeout = 0');
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch {
    // SQLITE_BUSY or a transient I/O error: the next tick tries again; the service's own
    // automatic checkpoint is the backstop.
  }
}, intervalMs);
parentPort?.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  database.close();
  parentPort?.close();
});
