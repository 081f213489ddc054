// Creators' profiles over HTTP (issue 28): name, bio and links saved from the account page and
// shown on the channel; the email changed with the password; avatar and banner uploaded as
// multipart forms, made into fixed sizes by ffmpeg on the media queue and served for good;
// hostile or broken files refused with a clear message, before or after the media job.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { systemClock } from '../../src/shared/clock.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { probe } from '../helpers/media-tools.ts';
import { waitFor } from '../helpers/wait.ts';
import { signIn, signUp, type WebAgent } from '../helpers/web.ts';

const run = promisify(execFile);
const PASSWORD = 'profile test password';

/** A picture made by ffmpeg: `size` is WxH; the format follows the extension. */
export async function makeImage(file: string, size: string): Promise<Buffer> {
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=size=${size}:rate=1`, '-frames:v', '1', file],
  ]);
  return fs.readFileSync(file);
}

export async function postImage(
  server: TestApp,
  agent: WebAgent,
  kind: 'avatar' | 'banner',
  bytes: Buffer,
  filename: string,
  options: { csrf?: boolean; accept?: string } = {},
): Promise<Response> {
  const form = new FormData();
  if (options.csrf !== false) form.append('_csrf', await agent.csrf('/account'));
  form.append('image', new Blob([new Uint8Array(bytes)]), filename);
  return fetch(`${server.origin}/account/${kind}`, {
    method: 'POST',
    headers: {
      cookie: agent.cookie,
      origin: server.origin,
      ...(options.accept === undefined ? {} : { accept: options.accept }),
    },
    body: form,
    redirect: 'manual',
  });
}

/**
 * Posts a multipart avatar with node:http, which stops waiting on its body once the server has
 * answered (the server reads the rest and drops it: test/web/oversized-upload.test.ts).
 */
function postRaw(server: TestApp, agent: WebAgent, bytes: Buffer): Promise<{ status: number; body: string }> {
  return agent.csrf('/account').then(
    (csrf) =>
      new Promise((resolve, reject) => {
        const boundary = 'profileboundary';
        const head = Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="huge.png"\r\n` +
            'Content-Type: image/png\r\n\r\n',
        );
        const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
        const request = http.request(`${server.origin}/account/avatar`, {
          method: 'POST',
          headers: {
            cookie: agent.cookie,
            origin: server.origin,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': head.length + bytes.length + tail.length,
          },
        });
        request.on('response', (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (body += chunk));
          response.on('end', () => {
            request.destroy();
            resolve({ status: response.statusCode ?? 0, body });
          });
        });
        request.on('error', reject);
        request.write(head);
        request.write(bytes);
        request.end(tail);
      }),
  );
}

async function readyImages(server: TestApp, userId: string, kind: 'avatar' | 'banner') {
  return waitFor(
    async () => {
      const profile = await server.services.profiles.find(userId);
      const image = profile?.[kind];
      if (image?.status === 'failed') throw new Error(`the ${kind} failed: ${image.error}`);
      return image?.status === 'ready' ? image : undefined;
    },
    { timeoutMs: 60_000, what: `the ${kind} to be ready`, failOnError: true },
  );
}

async function pageText(agent: WebAgent, pathname: string): Promise<string> {
  const response = await agent.get(pathname);
  assert.equal(response.status, 200, pathname);
  return response.text();
}

for (const dialect of DIALECTS) {
  describe(`profiles on ${dialect}`, () => {
    test('name, bio, links, email; avatar and banner made in fixed sizes; hostile files refused', async (t) => {
      const server = await startTestApp(t, {
        dialect,
        clock: systemClock,
        rateLimitPerIp: 1000,
        uploadWorker: true,
        media: {},
      });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-profiles-'));
      t.after(() => {
        fs.rmSync(dir, { recursive: true, force: true });
      });
      const agent = await signUp(server.origin, {
        name: 'Ada',
        email: 'ada@example.com',
        password: PASSWORD,
      });
      const me = await server.services.logins.findUser(
        (await server.services.database.db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id,
      );
      assert.ok(me);
      const userId = me.id;

      // Name, bio and links: saved, then shown on the channel (redirect after the POST).
      const saved = await agent.post('/account/profile', {
        name: '  Ada Lovelace ',
        bio: 'Notes on the <Analytical> Engine.\nEvery Tuesday.',
        links: 'https://example.com/ada\n\nhttps://ada.example.org',
      });
      assert.equal(saved.status, 303);
      assert.equal(saved.headers.get('location'), '/account?saved=profile');
      assert.match(await pageText(agent, '/account?saved=profile'), /Your profile is saved\./);
      const channel = await pageText(agent, `/channels/${userId}`);
      assert.match(channel, /<h1 id="channel-name">Ada Lovelace<\/h1>/);
      assert.match(channel, /Notes on the &lt;Analytical&gt; Engine\.\nEvery Tuesday\./);
      assert.match(
        channel,
        /<a href="https:\/\/example\.com\/ada" rel="nofollow noopener ugc" target="_blank">example\.com\/ada<\/a>/,
      );
      assert.match(channel, />ada\.example\.org</);
      // Bad fields: the page again with the reason, nothing saved.
      for (const [form, message] of [
        [{ name: ' ', bio: '', links: '' }, /Enter a name of 1 to 100 characters/],
        [{ name: 'Ada', bio: 'x'.repeat(1001), links: '' }, /Keep the bio to 1000 characters/],
        [{ name: 'Ada', bio: '', links: 'javascript:alert(1)' }, /is not a web address/],
        [{ name: 'Ada', bio: '', links: 'ftp://example.com' }, /is not a web address/],
        [
          {
            name: 'Ada',
            bio: '',
            links: Array.from({ length: 6 }, (_, i) => `https://e.com/${i}`).join('\n'),
          },
          /at most 5 links/,
        ],
      ] as const) {
        const refused = await agent.post('/account/profile', form);
        assert.equal(refused.status, 400);
        assert.match(await refused.text(), message);
      }
      assert.match(await pageText(agent, `/channels/${userId}`), /Ada Lovelace/);

      // Email: the password confirms it; a taken one is refused; the new one signs in.
      await signUp(server.origin, { name: 'Bo', email: 'bo@example.com', password: PASSWORD });
      const wrong = await agent.post('/account/email', {
        email: 'ada@new.example',
        current_password: 'not it at all',
      });
      assert.equal(wrong.status, 401);
      assert.match(await wrong.text(), /The current password is not right/);
      const taken = await agent.post('/account/email', {
        email: 'BO@example.com',
        current_password: PASSWORD,
      });
      assert.equal(taken.status, 409);
      const badEmail = await agent.post('/account/email', { email: 'nope', current_password: PASSWORD });
      assert.equal(badEmail.status, 400);
      const changed = await agent.post('/account/email', {
        email: 'Ada@New.Example',
        current_password: PASSWORD,
      });
      assert.equal(changed.status, 303);
      assert.equal(changed.headers.get('location'), '/account?saved=email');
      await signIn(server.origin, { email: 'ada@new.example', password: PASSWORD });
      await assert.rejects(signIn(server.origin, { email: 'ada@example.com', password: PASSWORD }));

      // Avatar (PNG, 300x200: cropped square) and banner (JPEG, 2000x1000: cropped 4:1).
      const png = await makeImage(path.join(dir, 'avatar.png'), '300x200');
      const jpeg = await makeImage(path.join(dir, 'banner.jpg'), '2000x1000');
      const avatarPost = await postImage(server, agent, 'avatar', png, 'me.png');
      assert.equal(avatarPost.status, 303, await avatarPost.text());
      assert.equal(avatarPost.headers.get('location'), '/account?saved=avatar');
      assert.equal((await postImage(server, agent, 'banner', jpeg, 'wide.jpg')).status, 303);
      const avatar = await readyImages(server, userId, 'avatar');
      const banner = await readyImages(server, userId, 'banner');
      for (const [urls, sizes] of [
        [
          avatar.urls,
          [
            [256, 256],
            [64, 64],
          ],
        ],
        [
          banner.urls,
          [
            [1600, 400],
            [800, 200],
          ],
        ],
      ] as const) {
        assert.ok(urls);
        for (const [width, height] of sizes) {
          const url: string | undefined = urls[width];
          assert.ok(url);
          const response = await fetch(url);
          assert.equal(response.status, 200);
          assert.equal(response.headers.get('content-type'), 'image/jpeg');
          assert.match(response.headers.get('cache-control') ?? '', /max-age=31536000, immutable/);
          const file = path.join(dir, `served-${width}.jpg`);
          fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
          const picture = (await probe(file)).streams[0];
          assert.deepEqual([picture?.width, picture?.height], [width, height], url);
        }
      }
      const shown = await pageText(agent, `/channels/${userId}`);
      assert.ok(avatar.urls && banner.urls);
      assert.ok(shown.includes(`src="${avatar.urls[256]}"`), 'the avatar on the channel');
      assert.ok(shown.includes(`src="${banner.urls[1600]}"`), 'the banner on the channel');
      const stream = await server.services.streams.create(userId, { title: 'With my face' });
      const watch = await pageText(agent, `/watch/${stream.stream.id}`);
      assert.ok(watch.includes(`src="${new URL(avatar.urls[64] ?? '').pathname}"`), 'the avatar by the name');
      // A new avatar replaces the old one's files.
      const before = avatar.urls[256];
      assert.equal((await postImage(server, agent, 'avatar', jpeg, 'again.jpg')).status, 303);
      const replaced = await waitFor(
        async () => {
          const image = (await server.services.profiles.find(userId))?.avatar;
          return image?.status === 'ready' && image.urls?.[256] !== before ? image : undefined;
        },
        { timeoutMs: 60_000, what: 'the new avatar' },
      );
      assert.ok(replaced.urls);
      // The row turns ready a moment before the worker removes the older files.
      await waitFor(
        async () => {
          const response = await fetch(before ?? '');
          await response.arrayBuffer();
          return response.status === 404;
        },
        {
          timeoutMs: 10_000,
          what: 'the old avatar gone',
        },
      );

      // Refused at once, with the reason on the account page.
      const text = Buffer.from('#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n');
      const bomb = Buffer.from(png);
      bomb.writeUInt32BE(100_000, 16);
      bomb.writeUInt32BE(100_000, 20);
      const tiny = await makeImage(path.join(dir, 'tiny.png'), '8x8');
      for (const [bytes, status, message] of [
        [text, 422, /This file is not a PNG, JPEG, GIF or WebP image/],
        [bomb, 422, /100000×100000 pixels: at most 8192/],
        [tiny, 422, /8×8 pixels: it must be at least 32/],
        [Buffer.alloc(0), 422, /Choose an image file/],
      ] as const) {
        const refused = await postImage(server, agent, 'avatar', bytes, 'x.png');
        assert.equal(refused.status, status);
        const page = await refused.text();
        assert.match(page, message);
        assert.match(page, /id="account-notice"/);
      }
      // A script that asks for JSON gets the API's envelope instead of the page.
      const scripted = await postImage(server, agent, 'avatar', text, 'x.png', {
        accept: 'application/json',
      });
      assert.equal(scripted.status, 422);
      assert.match(scripted.headers.get('content-type') ?? '', /^application\/json/);
      const envelope = (await scripted.json()) as { error: { message: string } };
      assert.match(envelope.error.message, /This file is not a PNG, JPEG, GIF or WebP image/);
      // Too large: refused while it arrives.
      const huge = Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)]);
      const tooLarge = await postRaw(server, agent, huge);
      assert.equal(tooLarge.status, 413);
      assert.match(tooLarge.body, /id="account-notice"[^]*larger than 5 MB/);
      // Without the form's token: refused.
      assert.equal((await postImage(server, agent, 'avatar', png, 'x.png', { csrf: false })).status, 403);

      // A PNG header on a broken body passes the first look; ffmpeg's failure is the page's.
      const broken = Buffer.concat([png.subarray(0, 33), Buffer.alloc(2000, 7)]);
      assert.equal((await postImage(server, agent, 'avatar', broken, 'broken.png')).status, 303);
      await waitFor(async () => (await server.services.profiles.find(userId))?.avatar.status === 'failed', {
        timeoutMs: 60_000,
        what: 'the broken avatar to fail',
      });
      const account = await pageText(agent, '/account');
      assert.match(account, /Your last avatar was refused: This image could not be read/);
      // The avatar shown is still the last good one.
      assert.ok(replaced.urls[256] && account.includes(`src="${replaced.urls[256]}"`));

      // Only made files are served.
      for (const bad of [
        '..%2f..%2fetc%2fpasswd',
        'avatar.jpg',
        'avatar-1-256.png',
        `avatar-${Date.now()}-256.jpg`,
      ]) {
        assert.equal((await fetch(`${server.origin}/profiles/${userId}/${bad}`)).status, 404, bad);
      }
    });
  });
}
