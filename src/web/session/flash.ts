// A secret shown once after a form (a new API key, a webhook's signing secret) without answering
// the POST with a page that a reload would send again: the POST seals the secret into a short-
// lived cookie and redirects (303) to a page that takes it out and clears it, so the secret is
// shown once and a reload shows it no more. Sealed (AES-256-GCM under its own derived key) and
// bound to the session's CSRF binding, so no other session, and nobody reading the cookie, can
// open it; it expires after two minutes even if never shown. Works with any number of processes,
// as nothing is kept on the server.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SecretBox } from '../../shared/secret-box.ts';
import type { Clock } from '../../shared/clock.ts';
import { readCookie, serializeCookie } from '../cookies.ts';

const FLASH_SECONDS = 120;

export interface Flash {
  /** Seals `data` for the page the reply redirects to; `kind` says which page may take it. */
  put(request: FastifyRequest, reply: FastifyReply, kind: string, data: unknown): void;
  /** What was put for `kind` in this session, once: the cookie is cleared either way. */
  take(request: FastifyRequest, reply: FastifyReply, kind: string): unknown;
}

export function flashCookies(box: SecretBox, clock: Clock, publicOrigin: string): Flash {
  const secure = new URL(publicOrigin).protocol === 'https:';
  const name = `${secure ? '__Host-' : ''}tributary_flash`;
  const boundTo = (request: FastifyRequest) => `flash:${request.csrfBinding}`;
  const set = (reply: FastifyReply, value: string, maxAgeSeconds: number) => {
    const cookie = serializeCookie(name, value, { secure, maxAgeSeconds });
    const existing = reply.getHeader('set-cookie');
    const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
    void reply.header('set-cookie', [...list, cookie]);
  };
  return {
    put(request, reply, kind, data) {
      const payload = JSON.stringify({ kind, data, expires: clock.now() + FLASH_SECONDS * 1000 });
      set(reply, box.seal(payload, boundTo(request)), FLASH_SECONDS);
    },
    take(request, reply, kind) {
      const sealed = readCookie(request.headers.cookie, name);
      if (sealed === undefined || sealed === '') return undefined;
      set(reply, '', 0);
      try {
        const payload = JSON.parse(box.open(sealed, boundTo(request))) as {
          kind: string;
          data: unknown;
          expires: number;
        };
        return payload.kind === kind && payload.expires > clock.now() ? payload.data : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
