// Outgoing mail through a real SMTP server on loopback: queued by MailOutbox.enqueue, sent
// by the mail worker with text and HTML parts, the platform's name and PUBLIC_URL and nothing
// remote; a server that refuses, or that hangs, delays the mail and loses none. Without
// SMTP_URL the embedded default prints each mail. SMTP_URL and MAIL_FROM are validated.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { smtpTransport, consoleTransport, type MailTransport } from '../../src/mail/mail-transport.ts';
import { createLogger } from '../../src/shared/logger.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startHangingServer, startSmtpReceiver } from '../helpers/smtp.ts';

const NOTICE = {
  name: 'Ada',
  subject: 'About your stream <script>',
  paragraphs: ['Your stream "Night & Day" was taken down.', 'Second paragraph.'],
  action: { label: 'Read why', url: 'http://media.test/account' },
};

async function mailJob(server: TestApp, mailId: string) {
  return server.services.database.db
    .selectFrom('media_jobs')
    .selectAll()
    .where('kind', '=', 'mail.send')
    .where('subject_id', '=', mailId)
    .executeTakeFirstOrThrow();
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const dialect of DIALECTS) {
  test(`${dialect}: a queued mail reaches the SMTP server with text and HTML parts and no tracking`, async (t) => {
    const smtp = await startSmtpReceiver(t);
    const server = await startTestApp(t, { dialect, mail: { smtpUrl: smtp.url } });
    const id = await server.services.mail.enqueue('account-notice', 'ada@example.com', NOTICE);
    const mail = await smtp.waitFor(() => true);
    assert.deepEqual(mail.to, ['ada@example.com']);
    assert.equal(mail.from, 'no-reply@tributary.test');
    assert.equal(mail.subject, 'About your stream <script>');
    assert.match(mail.text, /^Hello Ada,/);
    assert.match(mail.text, /Your stream "Night & Day" was taken down\./);
    assert.match(mail.text, /Read why: http:\/\/media\.test\/account/);
    assert.match(mail.text, /Tributary · http:\/\/media\.test/);
    assert.match(mail.html, /Your stream &quot;Night &amp; Day&quot; was taken down\./);
    assert.match(mail.html, /<a href="http:\/\/media\.test\/account"/);
    assert.doesNotMatch(mail.html, /<img|<script|url\(/i, 'no images, scripts or remote resources');
    assert.match(mail.header('message-id') ?? '', new RegExp(`<${id}@tributary\\.test>`));
    await until('marked sent', async () => (await mailJob(server, id)).status === 'done');
    const row = await server.services.database.db
      .selectFrom('mail_messages')
      .select('sent_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.ok(row.sent_at !== null);
  });
}

test('a server that refuses (451) delays the mail; it is sent once the server takes it, once', async (t) => {
  const smtp = await startSmtpReceiver(t);
  smtp.mode = 'refuse';
  const clock = new TestClock();
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    clock,
    mail: { smtpUrl: smtp.url, worker: { retryDelaysMs: [60_000, 60_000, 60_000] } },
  });
  const id = await server.services.mail.enqueue('account-notice', 'bo@example.com', NOTICE);
  await until('a refused attempt', async () => {
    const job = await mailJob(server, id);
    return job.status === 'pending' && job.attempts === 1 && job.last_error !== null;
  });
  assert.match((await mailJob(server, id)).last_error ?? '', /451|busy/i);
  assert.equal(smtp.mails.length, 0);
  smtp.mode = 'accept';
  clock.advance(61_000);
  for (const runner of server.mailWorker?.runners ?? []) runner.wake();
  await smtp.waitForCount(1);
  await until('done', async () => (await mailJob(server, id)).status === 'done');
  assert.equal((await mailJob(server, id)).attempts, 2);
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(smtp.mails.length, 1, 'sent once');
});

test('a server that hangs is given up on within the timeout; the mail goes once a server answers', async (t) => {
  const hanging = await startHangingServer(t);
  const smtp = await startSmtpReceiver(t);
  const clock = new TestClock();
  let target = smtpTransport(hanging.url, { timeouts: { connectMs: 500, socketMs: 500 } });
  const switchable: MailTransport = {
    kind: 'smtp',
    send: (mail) => target.send(mail),
    close: () => {
      target.close();
    },
  };
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    clock,
    mail: { smtpUrl: smtp.url, transport: switchable, worker: { retryDelaysMs: [60_000, 60_000] } },
  });
  const started = Date.now();
  const id = await server.services.mail.enqueue('account-notice', 'cy@example.com', NOTICE);
  await until('a timed-out attempt', async () => {
    const job = await mailJob(server, id);
    return job.status === 'pending' && job.last_error !== null;
  });
  assert.ok(Date.now() - started < 10_000, 'bounded by the timeouts');
  assert.ok(hanging.connections >= 1);
  assert.match((await mailJob(server, id)).last_error ?? '', /timeout|greeting/i);
  target.close();
  target = smtpTransport(smtp.url);
  clock.advance(61_000);
  for (const runner of server.mailWorker?.runners ?? []) runner.wake();
  const mail = await smtp.waitFor(() => true);
  assert.deepEqual(mail.to, ['cy@example.com']);
});

test('mail queued while no worker runs waits in the database and the next worker sends it all', async (t) => {
  const smtp = await startSmtpReceiver(t);
  const server = await startTestApp(t, { dialect: 'sqlite', mail: { smtpUrl: smtp.url, noWorker: true } });
  const ids = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      server.services.mail.enqueue('account-notice', `r${i}@example.com`, NOTICE),
    ),
  );
  assert.equal(smtp.mails.length, 0, 'nothing is sent inside the request that queued it');
  const { MailWorker } = await import('../../src/mail/mail-worker.ts');
  const worker = new MailWorker({
    db: server.services.database.db,
    clock: server.clock,
    logger: createLogger('silent'),
    outbox: server.services.mail,
    transport: smtpTransport(smtp.url),
    from: 'x@tributary.test',
    pollMs: 50,
  });
  worker.start();
  t.after(() => worker.stop());
  await smtp.waitForCount(20);
  assert.deepEqual(new Set(smtp.mails.flatMap((m) => m.to)).size, ids.length);
});

test('without SMTP_URL the embedded default prints each mail to the terminal and the log', async (t) => {
  const printed: string[] = [];
  const server = await startTestApp(t, {
    dialect: 'sqlite',
    logger: 'capture',
    mail: { transport: consoleTransport(createLogger('silent'), (text) => printed.push(text)) },
  });
  assert.equal(server.services.mail.verificationRequired, false);
  await server.services.mail.enqueue('account-notice', 'dee@example.com', NOTICE);
  await until('printed', () => Promise.resolve(printed.length === 1));
  assert.match(printed[0] ?? '', /To: dee@example\.com/);
  assert.match(printed[0] ?? '', /Subject: About your stream <script>/);
  assert.match(printed[0] ?? '', /Read why: http:\/\/media\.test\/account/);
});

test('SMTP_URL and MAIL_FROM are validated at start', () => {
  assert.equal(loadConfig({}).mail.smtpUrl, undefined);
  const ok = loadConfig({
    SMTP_URL: 'smtp://u:p@mail.example.com:587',
    MAIL_FROM: 'Tributary <tv@example.com>',
  });
  assert.equal(ok.mail.from, 'Tributary <tv@example.com>');
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return '';
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.message;
    }
  };
  assert.match(problems({ SMTP_URL: 'smtp://mail.example.com' }), /MAIL_FROM must be set with SMTP_URL/);
  assert.match(
    problems({ SMTP_URL: 'http://mail.example.com', MAIL_FROM: 'a@b.c' }),
    /SMTP_URL must be an smtp:\/\//,
  );
  assert.doesNotMatch(
    problems({ SMTP_URL: 'ftp://user:secret@x', MAIL_FROM: 'a@b.c' }),
    /secret/,
    'no password echoed',
  );
  assert.match(problems({ MAIL_FROM: 'not an address' }), /MAIL_FROM must be an address/);
});
