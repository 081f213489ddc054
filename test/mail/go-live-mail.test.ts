// Go-live mails: a channel going live mails each subscriber who wants it once (a job, not the
// going-live transaction), with RFC 8058 one-click unsubscribe; at most once per channel in
// the quiet period, even for a new stream soon after; a per-subscription setting on the
// channel page. And an unconfirmed creator's encoder is refused with the reason.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_GO_LIVE } from '../../src/mail/go-live.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { TestClock } from '../helpers/clock.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { RtmpTestClient } from '../helpers/rtmp-client.ts';
import { startSmtpReceiver } from '../helpers/smtp.ts';
import { newAgent, signIn } from '../helpers/web.ts';

const PASSWORD = 'correct horse battery';

async function verifiedViewer(server: TestApp, name: string) {
  const user = await server.services.logins.createUser({
    name,
    email: `${name.toLowerCase()}@example.com`,
    password: PASSWORD,
  });
  return user;
}

for (const dialect of DIALECTS) {
  test(`${dialect}: going live mails each subscriber once, with one-click unsubscribe; the channel mails at most once in the quiet period`, async (t) => {
    const smtp = await startSmtpReceiver(t);
    const clock = new TestClock();
    const server = await startTestApp(t, { dialect, clock, mail: { smtpUrl: smtp.url } });
    const creator = await server.createAccount('Night Owl');
    const subs = server.services.subscriptions;
    const ann = await verifiedViewer(server, 'Ann');
    const ben = await verifiedViewer(server, 'Ben');
    const cat = await verifiedViewer(server, 'Cat');
    const unconfirmed = await server.services.logins.signUp({
      name: 'Dan',
      email: 'dan@example.com',
      password: PASSWORD,
      address: 'x',
    });
    for (const viewer of [ann, ben, cat, unconfirmed]) await subs.subscribeOnce(viewer.id, creator.userId);
    await subs.setNotifiesLive(cat.id, creator.userId, false);

    const stream = await server.createStream(creator, { title: 'Midnight set' });
    await server.services.streams.goLive(stream.id);
    await smtp.waitForCount(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(
      smtp.mails.flatMap((m) => m.to).sort(),
      ['ann@example.com', 'ben@example.com'],
      'the setting and unconfirmed addresses are respected',
    );
    const mail = smtp.mails.find((m) => m.to.includes('ann@example.com'))!;
    assert.equal(mail.subject, 'Night Owl is live: Midnight set');
    assert.match(mail.text, new RegExp(`Watch now: http://media\\.test/watch/${stream.id}`));
    const unsubscribe = /^<(http:\/\/media\.test\/unsubscribe\/[^>]+)>$/.exec(
      mail.header('list-unsubscribe') ?? '',
    )?.[1];
    assert.ok(unsubscribe, `List-Unsubscribe: ${mail.header('list-unsubscribe')}`);
    assert.equal(mail.header('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');

    // RFC 8058: the mail client POSTs the body itself, with no cookie and no CSRF token.
    const path = new URL(unsubscribe).pathname;
    const forged = await fetch(`${server.origin}${path.slice(0, -2)}xx`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(forged.status, 404, 'a tampered link does nothing');
    const oneClick = await fetch(`${server.origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(oneClick.status, 200);
    assert.match(await oneClick.text(), /You will not be mailed when Night Owl goes live/);
    assert.equal(await subs.notifiesLive(ann.id, creator.userId), false);
    assert.equal(await subs.isSubscribed(ann.id, creator.userId), true, 'still subscribed');

    // A reconnect is the same stream; a new stream within the quiet period mails nobody.
    await server.services.streams.end(stream.id);
    const again = await server.createStream(creator, { title: 'Back again' });
    await server.services.streams.goLive(again.id);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.equal(smtp.mails.length, 2, 'no second mail within the quiet period');

    clock.advance(DEFAULT_GO_LIVE.quietMs + 1000);
    await server.services.streams.end(again.id);
    const later = await server.createStream(creator, { title: 'Next night' });
    await server.services.streams.goLive(later.id);
    await smtp.waitForCount(3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(
      smtp.mails.slice(2).flatMap((m) => m.to),
      ['ben@example.com'],
      'Ann unsubscribed',
    );
  });
}

test('the channel page turns go-live mails off and on for a subscription', async (t) => {
  const server = await startTestApp(t, { dialect: 'sqlite' });
  const creator = await server.createAccount('Sky Channel');
  await server.services.logins.createUser({ name: 'Eve', email: 'eve@example.com', password: PASSWORD });
  const agent = await signIn(server.origin, { email: 'eve@example.com', password: PASSWORD });
  assert.equal((await agent.post(`/channels/${creator.userId}/subscribe`, {})).status, 303);
  let page = await (await agent.get(`/channels/${creator.userId}`)).text();
  assert.match(page, /You get a mail when this channel goes live\./);
  assert.match(page, /Stop go-live mails/);
  assert.equal(
    (await agent.post(`/channels/${creator.userId}/notifications`, { notify: 'off' })).status,
    303,
  );
  page = await (await agent.get(`/channels/${creator.userId}`)).text();
  assert.match(page, /Go-live mails are off for this channel\./);
  assert.equal(
    (await agent.post(`/channels/${creator.userId}/notifications`, { notify: 'maybe' })).status,
    400,
  );
  assert.equal((await agent.post(`/channels/${creator.userId}/notifications`, { notify: 'on' })).status, 303);
  assert.match(
    await (await agent.get(`/channels/${creator.userId}`)).text(),
    /You get a mail when this channel goes live\./,
  );
  const visitor = await (await newAgent(server.origin).get(`/channels/${creator.userId}`)).text();
  assert.doesNotMatch(visitor, /go-live mails/i);
});

test("an unconfirmed creator's encoder is refused with the reason; once confirmed it goes live", async (t) => {
  const smtp = await startSmtpReceiver(t);
  const server = await startTestApp(t, { dialect: 'sqlite', media: {}, mail: { smtpUrl: smtp.url } });
  const user = await server.services.logins.signUp({
    name: 'Fay',
    email: 'fay@example.com',
    password: PASSWORD,
    address: 'x',
  });
  const key = await server.services.accounts.createKey(user.id, 'write');
  const stream = await server.createStream(
    { userId: user.id, writeKey: key.key, readKey: key.key },
    { title: 'Not yet' },
  );
  const client = await RtmpTestClient.open(server.rtmpPort);
  t.after(() => {
    client.close();
  });
  client.startPublish('live', stream.ingest.stream_key);
  const status = await client.nextStatus();
  assert.ok(status);
  assert.equal(status.code, 'NetStream.Publish.Rejected');
  assert.match(
    status.description,
    /Confirm your email address first: open the link we mailed to fay@example\.com/,
  );
  assert.equal(
    (await server.request('GET', `/v1/streams/${stream.id}`, { key: key.key })).body.status,
    'scheduled',
  );

  const token = await server.services.logins.createEmailToken(user.id, 'verify', 'fay@example.com');
  await server.services.logins.verifyEmail(token);
  const second = await RtmpTestClient.open(server.rtmpPort);
  t.after(() => {
    second.close();
  });
  second.startPublish('live', stream.ingest.stream_key);
  assert.equal((await second.nextStatus())?.code, 'NetStream.Publish.Start');
});
