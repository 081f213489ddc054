// An upload's tus URL is the credential for that one upload: the upload's id and an HMAC of
// (id, size, expiry) under a key derived from the master secret. It is unguessable, cannot be
// stretched to another size or a later expiry, and needs no storage; the API key never
// reaches the browser or phone that sends the bytes.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const UPLOAD_PATH_PREFIX = '/uploads/';
const TOKEN = /^(upl_[0-9A-Za-z]{22})\.([A-Za-z0-9_-]{32})$/;

export interface SignedUpload {
  id: string;
  size: number;
  expires_at: number;
}

export class UploadUrls {
  private readonly key: Buffer;
  private readonly publicUrl: string;

  constructor(key: Buffer, publicUrl: string) {
    this.key = key;
    this.publicUrl = publicUrl;
  }

  urlFor(upload: SignedUpload): string {
    return `${this.publicUrl}${UPLOAD_PATH_PREFIX}${upload.id}.${this.signature(upload)}`;
  }

  /** Whether the signature in a tus URL is this upload's (checked in constant time). */
  verify(upload: SignedUpload, signature: string): boolean {
    const expected = Buffer.from(this.signature(upload));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private signature(upload: SignedUpload): string {
    return createHmac('sha256', this.key)
      .update(`${upload.id}\n${upload.size}\n${upload.expires_at}`)
      .digest('base64url')
      .slice(0, 32);
  }
}

/** The upload id and signature named by the last segment of a tus URL, or undefined. */
export function parseUploadToken(token: string): { id: string; signature: string } | undefined {
  const match = TOKEN.exec(token);
  if (!match?.[1] || !match[2]) return undefined;
  return { id: match[1], signature: match[2] };
}
