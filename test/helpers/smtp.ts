// A real SMTP server on loopback (the `smtp-server` package) for mail tests: it accepts and
// keeps each mail (parsed with `mailparser`), or, as told, refuses every mail with a 5xx/4xx
// reply, or hangs (accepts the connection and never greets). Stopped when the test ends.
import net from 'node:net';
import type { TestContext } from 'node:test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Map<string, unknown>;
  /** The raw `List-Unsubscribe` etc. as sent. */
  header(name: string): string | undefined;
  parsed: ParsedMail;
}

export interface SmtpReceiver {
  url: string;
  port: number;
  mails: ReceivedMail[];
  /** 'accept' (the default), 'refuse' (every RCPT gets 451), 'reject' (550). */
  mode: 'accept' | 'refuse' | 'reject';
  /** Waits until `count` mails arrived (or `predicate` holds for one), within `timeoutMs`. */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  waitForCount(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSmtpReceiver(t: TestContext, port = 0): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const receiver: SmtpReceiver = {
    url: '',
    port: 0,
    mails,
    mode: 'accept',
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find(predicate);
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no such mail within ${timeoutMs} ms (got ${mails.length})`);
        await nextMail(waiters, deadline - Date.now());
      }
    },
    async waitForCount(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline)
          throw new Error(`${mails.length} of ${count} mails within ${timeoutMs} ms`);
        await nextMail(waiters, deadline - Date.now());
      }
    },
    close: () => Promise.resolve(),
  };
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    closeTimeout: 200,
    onRcptTo(_address, _session, callback) {
      if (receiver.mode === 'refuse') {
        callback(Object.assign(new Error('Mailbox busy, try later'), { responseCode: 451 }));
        return;
      }
      if (receiver.mode === 'reject') {
        callback(Object.assign(new Error('No such user'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: parsed.headers,
            header: (name) =>
              parsed.headerLines.find((l) => l.key === name.toLowerCase())?.line.replace(/^[^:]+:\s*/, ''),
            parsed,
          });
          for (const wake of waiters) wake();
          callback();
        },
        (error: unknown) => {
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve();
    });
  });
  const address = server.server.address() as net.AddressInfo;
  receiver.port = address.port;
  receiver.url = `smtp://127.0.0.1:${address.port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  t.after(() => receiver.close());
  return receiver;
}

function nextMail(waiters: Set<() => void>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(10, Math.min(ms, 500)));
    waiters.add(done);
  });
}

/** A server that accepts connections and never says a word (an SMTP server that hangs). */
export async function startHangingServer(t: TestContext): Promise<{ url: string; connections: number }> {
  const sockets = new Set<net.Socket>();
  const state = { url: '', connections: 0 };
  const server = net.createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `smtp://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  t.after(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  );
  return state;
}

/** The first link in a mail's text that starts with `prefix` (a path of the site). */
export function linkIn(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s]+${path.replace(/[/]/g, '\\/')}[^\\s]*`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in the mail:\n${mail.text}`);
  return match[0];
}
