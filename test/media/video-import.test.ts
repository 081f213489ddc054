// `tributary videos import`: a real file is packaged by ffmpeg and published; the result is
// checked the way a viewer would meet it, over HTTP.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { UsageError } from '../../src/cli/args.ts';
import { videosImport } from '../../src/cli/media-commands.ts';
import { loadConfig } from '../../src/config.ts';
import type { Runtime } from '../../src/runtime.ts';
import { AppError } from '../../src/shared/errors.ts';
import { DIALECTS } from '../helpers/databases.ts';
import { startMediaServer, type MediaTestServer } from '../helpers/media-server.ts';
import { countVideoFrames, makeTestFile, probe } from '../helpers/media-tools.ts';

/** The command runs on the server's own database and data directory. */
function runtimeOf(server: MediaTestServer, env: Record<string, string> = {}): Runtime {
  const config = loadConfig({
    DATABASE_URL: server.database.url,
    DATA_DIR: server.dataDir,
    PUBLIC_URL: server.origin,
    ...env,
  });
  return { config, secretKey: Buffer.alloc(32, 9), services: server.services, close: async () => undefined };
}

async function runImport(runtime: Runtime, argv: string[]): Promise<string[]> {
  const lines: string[] = [];
  await videosImport.run(runtime, argv, (line) => lines.push(line));
  return lines;
}

for (const dialect of DIALECTS) {
  describe(`videos import on ${dialect}`, () => {
    test('an H.264 file is packaged without re-encoding and published as a playable video', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const account = await server.createAccount();
      const file = path.join(server.dataDir, 'upload.mp4');
      await makeTestFile(file, 7);

      const lines = await runImport(runtimeOf(server), [
        file,
        '--creator',
        account.userId,
        '--title',
        'Imported clip',
        '--category',
        'music',
        '--tag',
        'demo',
        '--private',
      ]);
      assert.equal(lines.length, 1);
      const videoId = lines[0]!;
      assert.match(videoId, /^vid_/);

      const video = await server.request('GET', `/v1/videos/${videoId}`, { key: account.readKey });
      assert.equal(video.status, 200);
      assert.equal(video.body.source_stream_id, null);
      assert.equal(video.body.title, 'Imported clip');
      assert.equal(video.body.privacy, 'private');
      assert.deepEqual(video.body.tags, ['demo']);
      assert.equal(video.body.duration_seconds, 7);

      const manifest = await fetch(video.body.playback_url);
      assert.equal(manifest.status, 200);
      assert.match(await manifest.text(), /#EXT-X-PLAYLIST-TYPE:VOD[\s\S]*#EXT-X-ENDLIST/);
      const media = await probe(video.body.playback_url);
      assert.deepEqual(media.streams.map((s) => s.codec_name).sort(), ['aac', 'h264']);
      assert.equal(await countVideoFrames(video.body.playback_url), 7 * 25);
      assert.equal((await probe(video.body.thumbnail_url)).streams[0]!.codec_name, 'mjpeg');
      const page = await fetch(video.body.video_url);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /Imported clip/);

      const events = await server.events('video.published');
      assert.equal(events.length, 1);
      assert.equal(events[0]!.data.id, videoId);
      assert.equal(events[0]!.data.source_stream_id, null);
      assert.equal(events[0]!.data.duration_seconds, 7);
    });

    test('a file browsers cannot play from HLS is encoded once to H.264 and AAC', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const account = await server.createAccount();
      const source = path.join(server.dataDir, 'source.mp4');
      const file = path.join(server.dataDir, 'upload.mkv');
      await makeTestFile(source, 3);
      const { execFileSync } = await import('node:child_process');
      execFileSync('ffmpeg', ['-v', 'error', '-i', source, '-c:v', 'mpeg4', '-c:a', 'libvorbis', file]);

      const [videoId] = await runImport(runtimeOf(server), [
        file,
        '--creator',
        account.userId,
        '--title',
        'Old',
      ]);
      const video = await server.request('GET', `/v1/videos/${videoId!}`, { key: account.readKey });
      const media = await probe(video.body.playback_url);
      assert.deepEqual(media.streams.map((s) => s.codec_name).sort(), ['aac', 'h264']);
      assert.equal(video.body.duration_seconds, 3);
    });

    test('bad input is refused with a clear message and leaves nothing behind', async (t) => {
      const server = await startMediaServer(t, { dialect });
      const account = await server.createAccount();
      const runtime = runtimeOf(server);
      const file = path.join(server.dataDir, 'upload.mp4');
      await makeTestFile(file, 1);
      const text = path.join(server.dataDir, 'notes.mp4');
      fs.writeFileSync(text, 'not a video');

      await assert.rejects(runImport(runtime, ['--creator', account.userId, '--title', 'T']), /Missing FILE/);
      await assert.rejects(runImport(runtime, [file, '--title', 'T']), /Missing --creator/);
      await assert.rejects(
        runImport(runtime, [
          path.join(server.dataDir, 'missing.mp4'),
          '--creator',
          account.userId,
          '--title',
          'T',
        ]),
        (error) => error instanceof UsageError && /missing\.mp4 does not exist/.test(error.message),
      );
      await assert.rejects(
        runImport(runtime, [text, '--creator', account.userId, '--title', 'T']),
        (error) => error instanceof UsageError && /not a video file we can read/.test(error.message),
      );
      await assert.rejects(
        runImport(runtime, [file, '--creator', 'usr_nobody', '--title', 'T']),
        (error) => error instanceof AppError && error.code === 'resource_not_found',
      );
      await assert.rejects(
        runImport(runtime, [file, '--creator', account.userId, '--title', 'T', '--category', 'nope']),
        (error) => error instanceof AppError && error.code === 'parameter_invalid',
      );
      await assert.rejects(
        runImport(runtimeOf(server, { FFMPEG_PATH: '/nonexistent/ffmpeg' }), [
          file,
          '--creator',
          account.userId,
          '--title',
          'T',
        ]),
        (error) => error instanceof UsageError && /ffmpeg was not found at FFMPEG_PATH/.test(error.message),
      );

      const rows = await server.services.database.db.selectFrom('videos').select('id').execute();
      assert.deepEqual(rows, []);
      assert.deepEqual(await server.events(), []);
      const staging = path.join(server.dataDir, 'media', 'staging');
      assert.deepEqual(fs.existsSync(staging) ? fs.readdirSync(staging) : [], []);
    });
  });
}
