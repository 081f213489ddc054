// Where an upload's bytes live: DATA_DIR/uploads/{upl_id}, written by the tus file store as
// they arrive (never held in memory), with the store's small {upl_id}.json beside it. The file
// is kept once processed: it is the original the video was made from.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { MemoryLocker } from '@tus/server';
import { Upload } from '@tus/utils';

/**
 * FileStore, except that it does not make its folder: FileStore's constructor starts an
 * asynchronous mkdir whose failure it throws from a callback, out of anyone's reach, which would
 * end the process (a folder removed at the wrong moment, a full disk). UploadFiles makes the
 * folder itself, synchronously, where a failure is an ordinary error.
 */
class FolderMadeFileStore extends FileStore {}
(FolderMadeFileStore.prototype as unknown as { checkOrCreateDirectory: () => void }).checkOrCreateDirectory =
  () => undefined;

export class UploadFiles {
  readonly directory: string;
  private readonly expiryMs: number;
  private fileStore: FileStore | undefined;
  /** tus's per-upload locks in this process: one writer at a time, and a cancel stops it. */
  readonly locker = new MemoryLocker();

  constructor(dataDir: string, expiryMs: number) {
    this.directory = path.join(dataDir, 'uploads');
    this.expiryMs = expiryMs;
  }

  /** The tus file store, made on first use (a process that never sees an upload makes no folder). */
  get store(): FileStore {
    if (!this.fileStore) {
      fs.mkdirSync(this.directory, { recursive: true, mode: 0o700 });
      this.fileStore = new FileStore({
        directory: this.directory,
        expirationPeriodInMilliseconds: this.expiryMs,
      });
    }
    return this.fileStore;
  }

  /** The empty tus resource for an upload of exactly `size` bytes. */
  async create(id: string, size: number, createdAt: number): Promise<void> {
    await this.store.create(
      new Upload({ id, size, offset: 0, creation_date: new Date(createdAt).toISOString() }),
    );
  }

  originalPath(id: string): string {
    return path.join(this.directory, id);
  }

  /** Bytes on disk so far (the tus offset). */
  async receivedBytes(id: string): Promise<number> {
    try {
      return (await fsp.stat(this.originalPath(id))).size;
    } catch {
      return 0;
    }
  }

  /** Asks a PATCH still writing this upload in this process to stop (the lock's release request). */
  async releaseWriters(id: string): Promise<void> {
    const lock = this.locker.newLock(id);
    try {
      await lock.lock(AbortSignal.timeout(5000), () => undefined);
      await lock.unlock();
    } catch {
      // A writer that did not let go within 5 s finds the upload cancelled when it finishes.
    }
  }

  /** Takes a local file as an upload's original: a hard link where it can, else a copy. */
  async adopt(id: string, file: string): Promise<void> {
    // The store makes the folder on first use.
    fs.mkdirSync(this.store.directory, { recursive: true, mode: 0o700 });
    try {
      await fsp.link(file, this.originalPath(id));
    } catch {
      // Another file system, or a file the process may not link: copy (a clone where supported).
      await fsp.copyFile(file, this.originalPath(id), fs.constants.COPYFILE_FICLONE);
    }
  }

  /**
   * Moves a processed upload's original beside its video (DATA_DIR/media/originals/{vid_id}),
   * where deleting the video removes it. Done already (a retry after a crash) is fine.
   */
  async keepAsOriginal(id: string, destination: string): Promise<void> {
    await fsp.mkdir(path.dirname(destination), { recursive: true, mode: 0o700 });
    try {
      await fsp.rename(this.originalPath(id), destination);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await fsp.rm(`${this.originalPath(id)}.json`, { force: true });
  }

  async remove(id: string): Promise<void> {
    await fsp.rm(this.originalPath(id), { force: true });
    await fsp.rm(`${this.originalPath(id)}.json`, { force: true });
  }
}
