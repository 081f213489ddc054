// Where a mail goes once the queue hands it over: an SMTP server (SMTP_URL, through
// nodemailer's pooled transport), or, without one, the terminal and the log (the embedded
// default, as a development mail backend does). The queue (mail-worker.ts) retries what an
// SMTP server did not accept.
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface OutgoingMail {
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

export interface MailTransport {
  /** Resolves once the server accepted the mail; rejects when it did not (retried later). */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
  /** `smtp` sends; `console` prints (verification is then off). */
  readonly kind: 'smtp' | 'console';
}

export interface SmtpTimeouts {
  /** Connecting, and the server's greeting (a server that accepts and says nothing). */
  connectMs: number;
  /** Silence on an open connection (a server that stops answering mid-mail). */
  socketMs: number;
}

export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectMs: 10_000, socketMs: 30_000 };

export function smtpTransport(
  smtpUrl: string,
  options: { timeouts?: SmtpTimeouts; maxConnections?: number } = {},
): MailTransport {
  const timeouts = options.timeouts ?? DEFAULT_SMTP_TIMEOUTS;
  const url = new URL(smtpUrl);
  // nodemailer is loaded with the first SMTP transport: a process without SMTP_URL never needs
  // it (about 2 MB of the process's memory).
  const transporter: Promise<Transporter> = import('nodemailer').then(({ default: nodemailer }) =>
    nodemailer.createTransport({
      pool: true,
      maxConnections: options.maxConnections ?? 4,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port === '' ? (url.protocol === 'smtps:' ? 465 : 587) : Number(url.port),
      secure: url.protocol === 'smtps:',
      ...(url.username === ''
        ? {}
        : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
      connectionTimeout: timeouts.connectMs,
      greetingTimeout: timeouts.connectMs,
      socketTimeout: timeouts.socketMs,
      disableFileAccess: true,
      disableUrlAccess: true,
    }),
  );
  return {
    kind: 'smtp',
    async send(mail) {
      const opened = await transporter;
      await opened.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        messageId: `<${mail.id}@${new URL(`http://${mailDomain(mail.from)}`).hostname}>`,
      });
    },
    close() {
      void transporter.then((opened) => {
        opened.close();
      });
    },
  };
}

/** Prints each mail whole (text part) to the terminal and writes it to the log. */
export function consoleTransport(logger: Logger, write: (text: string) => void): MailTransport {
  return {
    kind: 'console',
    send(mail) {
      write(
        [
          '',
          `----- mail (not sent: SMTP_URL is not set) ${mail.id} -----`,
          `From: ${mail.from}`,
          `To: ${mail.to}`,
          `Subject: ${mail.subject}`,
          ...Object.entries(mail.headers).map(([name, value]) => `${name}: ${value}`),
          '',
          mail.text,
          '----- end of mail -----',
          '',
        ].join('\n'),
      );
      logger.info(
        { mailId: mail.id, to: mail.to, subject: mail.subject, text: mail.text },
        'mail (printed, not sent)',
      );
      return Promise.resolve();
    },
    close() {
      // nothing held
    },
  };
}

function mailDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf('@') + 1) || 'localhost';
}
