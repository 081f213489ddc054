// A real crash between a stream's end and its video's publication: a child `tributary serve`
// records a real ffmpeg push, is stopped on purpose just before publishing the video
// (TRIBUTARY_TEST_FAULT, src/shared/test-fault.ts) and killed there with SIGKILL; started again,
// it finds the draft and publishes it (src/ingest/recording-recovery.ts), media and thumbnail.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, test } from 'node:test';
import { createTestDatabase, DIALECTS } from '../helpers/databases.ts';
import { probe, pushTestPattern, waitFor } from '../helpers/media-tools.ts';
import { startService, tributaryCli, waitUntilReady } from '../scale/processes.ts';
import { freePort } from '../scale/redis.ts';

const PUSH_SECONDS = 6;

for (const dialect of DIALECTS) {
  describe(`a process killed between a stream's end and its video's publication, on ${dialect}`, () => {
    test('the next start publishes the video', { timeout: 120_000 }, async (t) => {
      const database = await createTestDatabase(dialect);
      t.after(() => database.drop());
      const port = await freePort();
      const rtmpPort = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        DATABASE_URL: database.url,
        DATA_DIR: database.dataDir,
        SECRET_KEY: randomBytes(32).toString('hex'),
        HOST: '127.0.0.1',
        PORT: String(port),
        RTMP_PORT: String(rtmpPort),
        PUBLIC_URL: origin,
        RECONNECT_WINDOW_SECONDS: '1',
        LOG_LEVEL: 'info',
      };
      await tributaryCli(env, ['migrate']);
      const userId = await tributaryCli(env, ['users', 'create', '--name', 'Crash Test']);
      const key = await tributaryCli(env, ['keys', 'create', '--user', userId, '--scope', 'write']);
      const api = async (requestPath: string) => {
        const response = await fetch(`${origin}${requestPath}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        return (await response.json()) as any;
      };

      const first = startService(t, {
        name: 'serve-1',
        args: ['serve', '--no-worker'],
        env: { ...env, TRIBUTARY_TEST_FAULT: 'pause-before-video-publish' },
        logDir: database.dataDir,
      });
      await waitUntilReady(first, `${origin}/readyz`);
      // Ready means every part runs: the RTMP listener (which opens after the HTTP one) too.
      assert.ok(await acceptsConnections(rtmpPort), 'the RTMP port accepts once /readyz is 200');
      const settings = await api('/v1/ingest');
      const push = pushTestPattern(`${settings.rtmp_url}/${settings.stream_key}`, PUSH_SECONDS, {
        size: '320x180',
      });
      t.after(() => {
        push.stop();
      });
      const pushed = await push.exited;
      if (pushed.code !== 0) {
        const log = fs.readFileSync(path.join(database.dataDir, 'serve-1.log'), 'utf8');
        assert.fail(`the push did not run to its end: ${pushed.stderr.slice(-600)}\n${log.slice(-3000)}`);
      }

      // The stream ends (its reconnect window is 1 s), the recording is staged, and the
      // process stops just before publishing it.
      const paused = await waitFor(
        'the process to reach the fault point',
        () =>
          first
            .log()
            .split('\n')
            .filter((line) => line.includes('"testFault":"pause-before-video-publish"'))
            .map((line) => JSON.parse(line) as { videoId: string; streamId: string })[0],
        { timeoutMs: 60_000 },
      );
      const stream = await api(`/v1/streams/${paused.streamId}`);
      assert.equal(stream.status, 'ended');
      assert.deepEqual((await api('/v1/videos')).data, [], 'the draft is not published yet');

      await first.stop('SIGKILL');
      assert.equal(first.signalCode, 'SIGKILL');

      const second = startService(t, {
        name: 'serve-2',
        args: ['serve', '--no-worker'],
        env,
        logDir: database.dataDir,
      });
      await waitUntilReady(second, `${origin}/readyz`);
      const video = await waitFor(
        'the video to be published after the restart',
        async () =>
          (await api('/v1/videos')).data[0] as { id: string; playback_url: string; thumbnail_url: string },
        { timeoutMs: 60_000 },
      );
      assert.equal(video.id, paused.videoId, 'the draft itself is finished, not replaced');
      const detail = await api(`/v1/videos/${video.id}`);
      assert.equal(detail.source_stream_id, paused.streamId);
      const media = await probe(detail.playback_url);
      assert.ok(
        Math.abs(media.durationSeconds - PUSH_SECONDS) <= 2,
        `the whole broadcast is there: ${media.durationSeconds} s`,
      );
      assert.equal((await probe(detail.thumbnail_url)).streams[0]!.codec_name, 'mjpeg');
      assert.ok(
        second.log().includes('recording a restart interrupted published as a video'),
        'the recovery says what it did',
      );
      assert.ok(!second.log().includes('testFault'), 'no fault in the second process');
      await second.stop('SIGTERM');
    });
  });
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}
