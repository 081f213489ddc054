// Reading and writing the app's cookies, without a dependency: only names the app sets are
// ever read, and values are base62, so no decoding is needed.

/** The value of one cookie in a Cookie header; the first one wins, as browsers send the most specific first. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  secure: boolean;
}

/** A Set-Cookie value: HttpOnly, SameSite=Lax, Path=/, Secure when the site is https. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
