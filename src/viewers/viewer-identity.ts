// Who a player is, for live counts and views: a signed cookie when the browser keeps one, else
// the `viewer` id a player sends, else its user agent. The cookie is what makes a refresh of
// the watch page the same viewer (the page's own random id changes with every load).
//
// The signature (HMAC under a key derived from SECRET_KEY) means a cookie's id was issued by
// this service, so ids cannot be picked at will through the cookie. It does not make a viewer
// scarce: anyone can be issued a cookie. What bounds one client is its address (per-address
// caps in the live counts and in views), whatever the identity.
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

export const VIEWER_COOKIE = 'tributary_viewer';
/** A year: a returning viewer is the same viewer. */
const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;
/** The `viewer` query id: opaque, 8 to 64 characters (viewer-contract.md). */
export const VIEWER_ID_PATTERN = '^[A-Za-z0-9_-]{8,64}$';
const VIEWER_ID = new RegExp(VIEWER_ID_PATTERN);
const SIGNATURE_BYTES = 16;

export interface ViewerIdentity {
  /** Namespaced by where it came from, so a query id can never pose as a cookie's. */
  id: string;
  /** A `Set-Cookie` value to send, when the request had no valid cookie. */
  setCookie: string | undefined;
}

export interface IdentityRequest {
  cookieHeader: string | undefined;
  queryViewer: string | undefined;
  userAgent: string | undefined;
  secure: boolean;
}

export class ViewerIdentities {
  // Imported once: createHmac would import a Buffer key again on every playlist request.
  private readonly key: KeyObject;
  private readonly cookiePath: string;

  /** `key` is derived for this purpose only (deriveKey(secret, 'viewer-cookies')). */
  constructor(key: Buffer, basePath: string) {
    this.key = createSecretKey(key);
    this.cookiePath = `${basePath}/watch`;
  }

  /** The viewer a presence request stands for, and the cookie to give it if it has none. */
  identify(request: IdentityRequest): ViewerIdentity {
    const fromCookie = this.verify(cookieValue(request.cookieHeader, VIEWER_COOKIE));
    if (fromCookie !== undefined) return { id: `c:${fromCookie}`, setCookie: undefined };
    // The cookie issued now carries the id this request was counted under, so the player's
    // next presence (with the cookie) stays the same viewer instead of counting twice.
    const id =
      request.queryViewer !== undefined && VIEWER_ID.test(request.queryViewer)
        ? request.queryViewer
        : agentId(request.userAgent);
    return { id: `c:${id}`, setCookie: this.cookie(id, request.secure) };
  }

  private cookie(id: string, secure: boolean): string {
    const value = `${id}.${this.sign(id)}`;
    const attributes = [
      `Path=${this.cookiePath}`,
      `Max-Age=${COOKIE_MAX_AGE_SECONDS}`,
      'HttpOnly',
      'SameSite=Lax',
    ];
    if (secure) attributes.push('Secure');
    return `${VIEWER_COOKIE}=${value}; ${attributes.join('; ')}`;
  }

  private sign(id: string): string {
    return createHmac('sha256', this.key)
      .update(id)
      .digest()
      .subarray(0, SIGNATURE_BYTES)
      .toString('base64url');
  }

  /** The id a well-formed cookie value signs, or undefined for anything else. */
  private verify(value: string | undefined): string | undefined {
    if (value === undefined || value.length > 128) return undefined;
    const dot = value.lastIndexOf('.');
    if (dot < 0) return undefined;
    const id = value.slice(0, dot);
    if (!VIEWER_ID.test(id)) return undefined;
    const given = Buffer.from(value.slice(dot + 1), 'base64url');
    const expected = createHmac('sha256', this.key).update(id).digest().subarray(0, SIGNATURE_BYTES);
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
  }
}

/** A player without an id of its own is told apart from others at its address by its agent. */
function agentId(userAgent: string | undefined): string {
  return `agent-${createHmac('sha256', 'tributary-agent')
    .update(userAgent ?? '')
    .digest('base64url')
    .slice(0, 22)}`;
}

/** One cookie's value from a Cookie header (the first of that name), undefined when absent. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined || header.length > 8192) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
