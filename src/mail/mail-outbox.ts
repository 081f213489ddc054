// The one way features send mail: MailOutbox.enqueue(template, to, data) renders the mail and
// stores it with its `mail.send` job, in the caller's transaction when given one. Nothing is
// sent here (never inside a request): the mail worker (mail-worker.ts) sends it, retrying
// with back-off while the SMTP server is down, so a mail is delayed but never lost.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.ts';
import type { Clock } from '../shared/clock.ts';
import { newId } from '../shared/ids.ts';
import type { PublicUrls } from '../shared/public-urls.ts';
import { insertMessages } from './mail.repository.ts';
import type { MailMessageTable } from './mail.table.ts';
import { renderMail, templates, type TemplateData, type TemplateName } from './templates.ts';

/** Attempts at sending one mail: the first and retries over about a day (mail-worker.ts). */
export const MAIL_MAX_ATTEMPTS = 8;

export interface MailOutboxOptions {
  /** SMTP_URL is set: mail really leaves, so addresses must be verified before they count. */
  verificationRequired: boolean;
}

export class MailOutbox {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly urls: PublicUrls;
  private readonly unsubscribeKey: Buffer;
  readonly verificationRequired: boolean;
  /** Told when this process enqueued mail (the in-process worker looks at once). */
  private readonly listeners = new Set<() => void>();

  constructor(db: Db, clock: Clock, urls: PublicUrls, unsubscribeKey: Buffer, options: MailOutboxOptions) {
    this.db = db;
    this.clock = clock;
    this.urls = urls;
    this.unsubscribeKey = unsubscribeKey;
    this.verificationRequired = options.verificationRequired;
  }

  /**
   * Queues one mail made from a template (templates.ts) for `to`; returns its id. With `db`
   * (a transaction), it is queued only if that transaction commits.
   */
  async enqueue<T extends TemplateName>(
    template: T,
    to: string,
    data: TemplateData<T>,
    options: { db?: Db; headers?: Record<string, string> } = {},
  ): Promise<string> {
    const message = this.render(template, to, data, options.headers ?? {});
    await insertMessages(options.db ?? this.db, [message], MAIL_MAX_ATTEMPTS, this.clock.now());
    this.notify();
    return message.id;
  }

  /** Many at once (a go-live fan-out's batch), with ids the caller chose so a retry repeats none. */
  async enqueueBatch(mails: MailMessageTable[]): Promise<void> {
    await insertMessages(this.db, mails, MAIL_MAX_ATTEMPTS, this.clock.now());
    this.notify();
  }

  render<T extends TemplateName>(
    template: T,
    to: string,
    data: TemplateData<T>,
    headers: Record<string, string>,
    id: string = newId('msg'),
  ): MailMessageTable {
    const make = templates[template] as (d: TemplateData<T>) => Parameters<typeof renderMail>[0];
    const rendered = renderMail(make(data), this.urls.publicUrl);
    return {
      id,
      template,
      to_address: to,
      subject: rendered.subject,
      text_body: rendered.text,
      html_body: rendered.html,
      headers: JSON.stringify(headers),
      created_at: this.clock.now(),
      sent_at: null,
    };
  }

  /** A page of the site, for links in mails. */
  link(path: string): string {
    return this.urls.page(path);
  }

  /** The one-click unsubscribe link of a subscription (RFC 8058): its id, signed. */
  unsubscribeUrl(subscriptionId: string): string {
    return this.urls.page(`/unsubscribe/${this.unsubscribeToken(subscriptionId)}`);
  }

  unsubscribeToken(subscriptionId: string): string {
    return `${subscriptionId}.${this.sign(subscriptionId)}`;
  }

  /** The subscription an unsubscribe token names, when its signature holds. */
  openUnsubscribeToken(token: string): string | undefined {
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const id = token.slice(0, dot);
    const expected = Buffer.from(this.sign(id));
    const given = Buffer.from(token.slice(dot + 1));
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
  }

  onEnqueue(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private sign(id: string): string {
    return createHmac('sha256', this.unsubscribeKey)
      .update(`unsubscribe:${id}`)
      .digest('base64url')
      .slice(0, 32);
  }
}
