// The webhook pages on a real server with a real delivery worker and a real HTTPS receiver, on
// both databases: register (the API's rules and messages; the secret shown once), the ping in
// the delivery log, a test event, a delivery's attempts, resend, rotate, delete, and another
// account's 404 on every page and action.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DIALECTS } from '../helpers/databases.ts';
import { startReceiver } from '../helpers/https-receiver.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait.ts';
import { signUp } from '../helpers/web.ts';

const PASSWORD = 'correct horse battery';

for (const dialect of DIALECTS) {
  test(`${dialect}: register a webhook on the page, see its ping and a test event in the delivery log`, async (t) => {
    const server = await startTestApp(t, {
      dialect,
      clock: systemClock,
      worker: true,
      rateLimitPerIp: 100_000,
    });
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const api = await server.createAccount();
    const ada = await signUp(server.origin, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
    const eve = await signUp(server.origin, { name: 'Eve', email: 'eve@example.com', password: PASSWORD });

    // Refusals carry the API's messages.
    for (const [form, body] of [
      [{ url: receiver.url() }, { url: receiver.url(), events: [] }],
      [
        { url: receiver.url(), 'event-all': 'on', 'event-ping': 'on' },
        { url: receiver.url(), events: ['*', 'ping'] },
      ],
      [
        { url: 'http://example.com/hook', 'event-all': 'on' },
        { url: 'http://example.com/hook', events: ['*'] },
      ],
    ] as const) {
      const fromApi = await server.request('POST', '/v1/webhooks', { key: api.writeKey, body });
      const refused = await ada.post('/dashboard/webhooks', form);
      assert.equal(refused.status, 400);
      const message = (fromApi.body.error.message as string).replace(/'/g, '&#39;');
      assert.ok((await refused.text()).includes(message), message);
    }

    // Redirect after POST: the secret is on the page the registration goes to, once.
    const registered = await ada.post('/dashboard/webhooks', { url: receiver.url(), 'event-all': 'on' });
    assert.equal(registered.status, 303);
    const secretPage = registered.headers.get('location') ?? '';
    const id = /^\/dashboard\/webhooks\/(wh_\w+)\/secret$/.exec(secretPage)?.[1];
    assert.ok(id, secretPage);
    const page = await (await ada.get(secretPage)).text();
    const secret = /id="webhook-secret" type="text" readonly value="(whsec_\w+)"/.exec(page)?.[1];
    assert.ok(secret, 'the secret is shown');
    const reloaded = await ada.get(secretPage);
    assert.equal(reloaded.status, 303, 'a reload shows the secret no more');
    assert.equal(reloaded.headers.get('location'), `/dashboard/webhooks/${id}`);
    const again = await ada.post('/dashboard/webhooks', { url: receiver.url(), 'event-all': 'on' });
    assert.equal(again.status, 409, 'the same URL twice');

    const [ping] = await receiver.waitForRequests(1);
    assert.equal(ping?.body.type, 'ping');
    const log = await waitFor(
      async () => {
        const html = await (await ada.get(`/dashboard/webhooks/${id}`)).text();
        return html.includes('data-event-type="ping" data-status="succeeded"') ? html : undefined;
      },
      { timeoutMs: 10_000, what: 'the ping in the delivery log' },
    );
    assert.ok(!log.includes(secret), 'the secret is not shown again');
    assert.ok(!(await (await ada.get('/dashboard/webhooks')).text()).includes(secret));

    const sent = await ada.post(`/dashboard/webhooks/${id}/test`, {});
    assert.equal(sent.status, 303);
    assert.equal(sent.headers.get('location'), `/dashboard/webhooks/${id}?done=test`);
    const [, test2] = await receiver.waitForRequests(2);
    assert.equal(test2?.body.type, 'ping');
    const eventId = test2.headers['webhook-id'] as string;
    await waitFor(
      async () => {
        const html = await (await ada.get(`/dashboard/webhooks/${id}`)).text();
        return (html.match(/data-status="succeeded"/g) ?? []).length >= 2 ? true : undefined;
      },
      { timeoutMs: 10_000, what: 'both pings logged' },
    );
    const delivery = await ada.get(`/dashboard/webhooks/${id}/deliveries/${eventId}`);
    assert.equal(delivery.status, 200);
    assert.match(
      await delivery.text(),
      /<td data-label="Answer">\s*200\s*<\/td>/,
      'the attempt and its answer',
    );

    const resent = await ada.post(`/dashboard/webhooks/${id}/deliveries/${eventId}/resend`, {});
    assert.equal(resent.status, 303);
    const third = (await receiver.waitForRequests(3))[2];
    assert.equal(third?.headers['webhook-id'], eventId, 'the same event again');

    // Another account: 404 on every page and action, and nothing changes.
    for (const path of [`/dashboard/webhooks/${id}`, `/dashboard/webhooks/${id}/deliveries/${eventId}`]) {
      assert.equal((await eve.get(path)).status, 404, path);
    }
    for (const path of [
      `/dashboard/webhooks/${id}/test`,
      `/dashboard/webhooks/${id}/enable`,
      `/dashboard/webhooks/${id}/rotate-secret`,
      `/dashboard/webhooks/${id}/delete`,
      `/dashboard/webhooks/${id}/deliveries/${eventId}/resend`,
    ]) {
      const answer = await eve.post(path, {});
      assert.equal(answer.status, 404, path);
      assert.doesNotMatch(await answer.text(), /whsec_/, path);
    }
    assert.equal(receiver.requests.length, 3, "another's test and resend sent nothing");

    const rotated = await ada.post(`/dashboard/webhooks/${id}/rotate-secret`, {});
    assert.equal(rotated.status, 303);
    assert.equal(rotated.headers.get('location'), `/dashboard/webhooks/${id}/secret`);
    const rotatedPage = await (await ada.get(`/dashboard/webhooks/${id}/secret`)).text();
    const fresh = /value="(whsec_\w+)"/.exec(rotatedPage)?.[1];
    assert.ok(fresh && fresh !== secret, 'a new secret, shown once');
    assert.match(rotatedPage, /New signing secret/);
    assert.equal((await eve.get(`/dashboard/webhooks/${id}/secret`)).status, 404);

    const deleted = await ada.post(`/dashboard/webhooks/${id}/delete`, {});
    assert.equal(deleted.status, 303);
    assert.equal(deleted.headers.get('location'), '/dashboard/webhooks?deleted=1');
    assert.equal((await ada.get(`/dashboard/webhooks/${id}`)).status, 404);
    assert.deepEqual(await server.services.webhooks.list(await userId(server, 'ada@example.com')), []);
  });
}

async function userId(server: Awaited<ReturnType<typeof startTestApp>>, email: string): Promise<string> {
  const row = await server.handle.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}
