// Stand-ins for web-core's foundation (src/web/html.ts, layout.ts, session/*), written to the
// contract in /work/notes/web-contract.md. Deleted when web-core is merged.
import type { FastifyReply, FastifyRequest } from 'fastify';

export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function piece(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(piece).join('');
  return escape(typeof value === 'string' ? value : JSON.stringify(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += piece(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

export function raw(text: string): SafeHtml {
  return new SafeHtml(text);
}

export interface WebUser {
  id: string;
  name: string;
  email: string | null;
}

export function renderPage(page: {
  title: string;
  request: FastifyRequest;
  body: SafeHtml;
  scripts?: string[];
  styles?: string[];
  section?: string;
}): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>${page.title}</title>
        ${(page.styles ?? []).map((href) => html`<link rel="stylesheet" href="${href}" />`)}
      </head>
      <body>
        <main id="main">${page.body}</main>
        ${(page.scripts ?? []).map((src) => html`<script src="${src}"></script>`)}
      </body>
    </html>`.toString();
}

export function sendPage(reply: FastifyReply, page: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
}

export function requireUser(request: FastifyRequest, reply: FastifyReply): WebUser | undefined {
  const user = (request as FastifyRequest & { webUser?: WebUser | null }).webUser ?? null;
  if (user) return user;
  void reply.redirect(`/sign-in?next=${encodeURIComponent(request.url)}`, 303);
  return undefined;
}

export function csrfField(request: FastifyRequest): SafeHtml {
  const token = (request as FastifyRequest & { csrfToken?: string }).csrfToken ?? '';
  return html`<input type="hidden" name="_csrf" value="${token}" />`;
}
