// The creator is told by mail (issue 27): a suspension, a reinstatement and a takedown each send
// the creator an `account-notice` mail with the operator's reason, through a real SMTP server
// on loopback; an account without an address is told in the log only, and nothing is queued.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLI_ACTOR } from '../../src/moderation/moderation.service.ts';
import { startTestApp } from '../helpers/app.ts';
import { seedVideos } from '../helpers/seed.ts';
import { startSmtpReceiver } from '../helpers/smtp.ts';

const PASSWORD = 'correct horse battery';

test('suspension, reinstatement and a takedown each mail the creator the reason', async (t) => {
  const smtp = await startSmtpReceiver(t);
  const server = await startTestApp(t, { dialect: 'sqlite', mail: { smtpUrl: smtp.url } });
  const creator = await server.services.logins.createUser({
    name: 'Cato',
    email: 'cato@example.com',
    password: PASSWORD,
  });
  const moderation = server.services.moderation;

  await moderation.suspend(CLI_ACTOR, creator.id, 'Repeated spam in titles');
  const suspended = await smtp.waitFor((mail) => mail.subject === 'Your account has been suspended');
  assert.deepEqual(suspended.to, ['cato@example.com']);
  assert.match(suspended.text, /Hello Cato/);
  assert.match(suspended.text, /Reason: Repeated spam in titles/);
  assert.match(suspended.html, /Reason: Repeated spam in titles/);

  await moderation.reinstate(CLI_ACTOR, creator.id, 'Appeal accepted');
  const reinstated = await smtp.waitFor((mail) => mail.subject === 'Your account has been reinstated');
  assert.match(reinstated.text, /Reason: Appeal accepted/);

  const [videoId = ''] = await seedVideos(server.services.database.db, 1, () => ({
    creator_id: creator.id,
    title: 'Clip <b>one</b>',
  }));
  await moderation.takedown(CLI_ACTOR, 'video', videoId, 'Copyright claim');
  const takedown = await smtp.waitFor((mail) => mail.subject.includes('has been taken down'));
  assert.equal(takedown.subject, 'Your video "Clip <b>one</b>" has been taken down');
  assert.match(takedown.text, /Reason: Copyright claim/);
  assert.doesNotMatch(takedown.html, /<b>one<\/b>/, 'the title is text in the HTML part, not markup');
  assert.equal(smtp.mails.length, 3);
});

test('an account without an address is suspended without a mail', async (t) => {
  const smtp = await startSmtpReceiver(t);
  const server = await startTestApp(t, { dialect: 'sqlite', mail: { smtpUrl: smtp.url } });
  const { id } = await server.services.accounts.createUser('No address');
  await server.services.moderation.suspend(CLI_ACTOR, id, 'Spam');
  const queued = await server.services.database.db.selectFrom('mail_messages').select('id').execute();
  assert.deepEqual(queued, []);
});
