// Two real API processes on one PostgreSQL database and one Redis, as a scaled-out deployment
// runs them: chat clients on either see each other's messages in the same order, the flood
// limit and the moderators' actions hold on both, and a client resumes on the other process.
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { describe, test } from 'node:test';
import { AccountService } from '../../src/accounts/account.service.ts';
import { SessionService } from '../../src/accounts/session.service.ts';
import { openDatabase } from '../../src/db/database.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { createTestDatabase, POSTGRES_ADMIN_URL } from '../helpers/databases.ts';
import { waitFor } from '../helpers/wait.ts';
import { startApiProcesses, tributaryCli } from '../scale/processes.ts';
import { REDIS_URL } from '../scale/redis.ts';
import { ChatClient } from './chat-client.ts';

const SKIP = POSTGRES_ADMIN_URL && REDIS_URL ? false : 'needs TEST_POSTGRES_URL and TEST_REDIS_URL';

describe('chat across two API processes (PostgreSQL and Redis)', { skip: SKIP, timeout: 240_000 }, () => {
  test('order, flood limits, deletes, bans and resumes hold on both processes', async (t) => {
    const database = await createTestDatabase('postgres');
    t.after(() => database.drop());
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      SECRET_KEY: randomBytes(32).toString('hex'),
      REDIS_URL,
      LOG_LEVEL: 'warn',
      // Every client here is on loopback; each names its own address through the proxy header.
      TRUST_PROXY: 'true',
    };
    // The flood budget is counted per address in the shared test Redis, where it outlives this
    // run by its mute: each run's clients take addresses of their own.
    const subnet = `10.${randomInt(256)}.${randomInt(256)}`;
    await tributaryCli(env, ['migrate']);
    const handle = openDatabase(database.url);
    t.after(() => handle.close());
    const accounts = new AccountService(handle.db, systemClock);
    const sessions = new SessionService(handle.db, systemClock, Buffer.alloc(32, 1));
    const cookieOf = async (userId: string) => `tributary_session=${(await sessions.start(userId)).token}`;
    const creator = await accounts.createUser('Cora Creator');
    const creatorKey = (await accounts.createKey(creator.id, 'write')).key;
    const ann = await accounts.createUser('Ann');
    const bob = await accounts.createUser('Bob');

    const [api1, api2] = await startApiProcesses(t, ['api-1', 'api-2'], env, database.dataDir);
    assert.ok(api1 && api2);
    const created = await fetch(`${api1.origin}/v1/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${creatorKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Two processes' }),
    });
    const createdBody = await created.text();
    assert.equal(created.status, 201, createdBody);
    const streamId = (JSON.parse(createdBody) as { id: string }).id;

    const annCookie = await cookieOf(ann.id);
    const bobCookie = await cookieOf(bob.id);
    const a = await ChatClient.connect(api1.origin, streamId, {
      cookie: annCookie,
      forwardedFor: `${subnet}.1`,
    });
    const b = await ChatClient.connect(api2.origin, streamId, {
      cookie: bobCookie,
      forwardedFor: `${subnet}.2`,
    });
    const watcher = await ChatClient.connect(api2.origin, streamId, { forwardedFor: `${subnet}.3` });
    t.after(() => {
      for (const client of [a, b, watcher]) client.close();
    });

    // Both post at once, on different processes: everyone sees the same six in the same order.
    const posts = [];
    for (const n of [1, 2, 3]) posts.push(...(await Promise.all([a.post(`a${n}`), b.post(`b${n}`)])));
    for (const answer of posts) assert.equal(answer.type, 'posted', JSON.stringify(answer));
    const order = await a.waitForTexts(6);
    assert.deepEqual(await b.waitForTexts(6), order);
    assert.deepEqual(await watcher.waitForTexts(6), order);
    assert.deepEqual(
      a.messages().map((m) => m.seq),
      [1, 2, 3, 4, 5, 6],
    );
    assert.deepEqual(
      b.messages().map((m) => m.seq),
      [1, 2, 3, 4, 5, 6],
    );

    // The flood limit is one budget over both processes: Ann's second tab on api-2 counts too.
    const annTab = await ChatClient.connect(api2.origin, streamId, {
      cookie: annCookie,
      forwardedFor: `${subnet}.4`,
    });
    t.after(() => {
      annTab.close();
    });
    const burst: string[] = [];
    for (let i = 0; i < 8; i++) {
      const answer = await (i % 2 === 0 ? a : annTab).post(`burst ${i}`);
      burst.push(answer.type === 'posted' ? 'posted' : String(answer.code));
      if (answer.type === 'error') break;
    }
    assert.equal(burst.at(-1), 'rate_limit_exceeded', burst.join(', '));
    // Muted now, on either process.
    const muted1 = await a.post('still muted?');
    const muted2 = await annTab.post('still muted?');
    assert.match(String(muted1.message), /muted/);
    assert.match(String(muted2.message), /muted/);

    // The creator deletes one of Bob's messages through the API on api-1: it vanishes on both.
    const bobsFirst = b.messages().find((m) => m.text === 'b1');
    const deleted = await fetch(`${api1.origin}/v1/streams/${streamId}/chat/messages/${bobsFirst.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${creatorKey}` },
    });
    assert.equal(deleted.status, 200);
    const started = performance.now();
    for (const client of [a, b, watcher]) {
      await waitFor(() => client.frames.find((f) => f.type === 'deleted' && f.id === bobsFirst.id), {
        what: 'the deletion on every process',
      });
    }
    t.diagnostic(`deletion seen on both processes after ${Math.round(performance.now() - started)} ms`);

    // The creator bans Bob through api-2: his socket on api-1 is told, and he cannot post there.
    const bobOn1 = await ChatClient.connect(api1.origin, streamId, {
      cookie: bobCookie,
      forwardedFor: `${subnet}.5`,
    });
    t.after(() => {
      bobOn1.close();
    });
    const ban = await fetch(`${api2.origin}/v1/streams/${streamId}/chat/bans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${creatorKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: bob.id, reason: 'spoilers' }),
    });
    assert.equal(ban.status, 201);
    await waitFor(() => bobOn1.frames.find((f) => f.type === 'restricted' && f.restriction === 'ban'));
    const refused = await bobOn1.post('let me in');
    assert.equal(refused.code, 'chat_banned');
    assert.equal((await b.post('and here?')).code, 'chat_banned');

    // The watcher drops off api-2 and resumes on api-1: nothing lost, nothing repeated.
    const seen = watcher.lastSeq();
    watcher.close();
    const creatorCookie = await cookieOf(creator.id);
    const host = await ChatClient.connect(api2.origin, streamId, {
      cookie: creatorCookie,
      forwardedFor: `${subnet}.6`,
    });
    t.after(() => {
      host.close();
    });
    for (const text of ['after 1', 'after 2', 'after 3'])
      assert.equal((await host.post(text)).type, 'posted');
    const resumed = await ChatClient.connect(api1.origin, streamId, {
      after: seen,
      forwardedFor: `${subnet}.3`,
    });
    t.after(() => {
      resumed.close();
    });
    assert.equal((await host.post('after 4')).type, 'posted');
    assert.deepEqual(await resumed.waitForTexts(4), ['after 1', 'after 2', 'after 3', 'after 4']);
    const seqs = resumed.messages().map((m) => m.seq as number);
    assert.ok(seqs.every((seq, i) => seq > seen && (i === 0 || seq > (seqs[i - 1] ?? 0))));
  });
});
