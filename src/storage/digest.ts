// SHA-256 and byte counts of what passes through, computed as it passes: the stores hash what
// they send, and verification hashes what it reads back.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import type { Readable } from 'node:stream';

/** A pass-through that hashes and counts the bytes it passes on. */
export class DigestCounter extends Transform {
  bytes = 0;
  private readonly hash: Hash = createHash('sha256');
  private digestHex: string | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    callback(null, chunk);
  }

  /** The hex digest; only once every byte has passed. */
  digest(): string {
    this.digestHex ??= this.hash.digest('hex');
    return this.digestHex;
  }
}

export function sha256Of(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** SHA-256 and size of a readable's bytes, read to the end (it is consumed). */
export async function digestStream(readable: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of readable) {
    const bytes = chunk as Buffer;
    hash.update(bytes);
    size += bytes.length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** SHA-256 and size of a file, streamed from disk. */
export function digestFile(file: string): Promise<{ sha256: string; size: number }> {
  return digestStream(fs.createReadStream(file));
}

/** A small body read whole (the check's object; never media). */
export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
