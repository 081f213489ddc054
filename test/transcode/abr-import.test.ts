// `tributary videos import` with the ladder on: a 720p file becomes a master playlist of the
// copied source and the encoded rungs below it, made by a niced ffmpeg (live work first), and
// the video is published only once every rendition is there. SQLite only.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { videosImport } from '../../src/cli/media-commands.ts';
import { loadConfig } from '../../src/config.ts';
import { parseMasterPlaylist } from '../../src/hls/master-playlist.ts';
import { startMediaServer } from '../helpers/media-server.ts';
import { countVideoFrames } from '../helpers/media-tools.ts';

const run = promisify(execFile);

/** Niceness of this process's ladder-making ffmpeg children running now (field 19 of /proc/<pid>/stat). */
function ffmpegChildNiceness(): number[] {
  const found: number[] = [];
  for (const task of fs.readdirSync(`/proc/${process.pid}/task`)) {
    let children: string;
    try {
      children = fs.readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const pid of children.trim().split(/\s+/).filter(Boolean)) {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        // ffmpeg itself (not `nice` in the instant before it execs ffmpeg), making a ladder.
        if (!stat.includes('(ffmpeg)')) continue;
        if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('-var_stream_map')) continue;
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        found.push(Number(fields[16]));
      } catch {
        // Exited between the listing and the read.
      }
    }
  }
  return found;
}

describe('adaptive bitrate, videos import', () => {
  test('a 720p file is imported as every rendition, niced, published when complete', async (t) => {
    const server = await startMediaServer(t, { dialect: 'sqlite' });
    const account = await server.createAccount();
    const file = path.join(server.dataDir, 'upload-720p.mp4');
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=1280x720:rate=10:duration=6',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=6',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-g',
      '20',
      '-c:a',
      'aac',
      '-shortest',
      file,
    ]);
    const config = loadConfig({
      DATABASE_URL: server.database.url,
      DATA_DIR: server.dataDir,
      PUBLIC_URL: server.origin,
      TRANSCODE_PRESET: 'ultrafast',
      // The machine is shared: room is judged against many cores, so the import is not kept waiting.
      TRANSCODE_CPU_CORES: '64',
    });
    const runtime = {
      config,
      secretKey: Buffer.alloc(32, 9),
      services: server.services,
      close: async () => undefined,
    };
    const lines: string[] = [];
    const niceness = new Set<number>();
    const watcher = setInterval(() => {
      for (const value of ffmpegChildNiceness()) niceness.add(value);
    }, 50);
    t.after(() => {
      clearInterval(watcher);
    });
    const importing = videosImport.run(
      runtime,
      [file, '--creator', account.userId, '--title', 'Ladder'],
      (line) => lines.push(line),
    );
    // Unpublished while it is being made: nothing is listed, no event has gone out.
    const listed = await server.request('GET', `/v1/videos?creator_id=${account.userId}`, {
      key: account.readKey,
    });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.data, []);
    assert.equal((await server.events('video.published')).length, 0);
    await importing;
    clearInterval(watcher);
    assert.deepEqual([...niceness], [19], 'the import ffmpeg ran at the lowest priority');

    const video = (await server.request('GET', `/v1/videos/${lines[0]}`, { key: account.readKey })).body;
    assert.equal(video.duration_seconds, 6);
    const master = parseMasterPlaylist(await (await fetch(video.playback_url)).text());
    assert.deepEqual(
      master.map((variant) => [variant.uri, variant.attributes.RESOLUTION]),
      [
        ['source.m3u8', '1280x720'],
        ['480p.m3u8', '854x480'],
        ['360p.m3u8', '640x360'],
      ],
    );
    for (const variant of master) {
      assert.match(variant.attributes.CODECS ?? '', /^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
      assert.equal(
        await countVideoFrames(new URL(variant.uri, video.playback_url).toString()),
        60,
        `${variant.uri} decodes whole`,
      );
    }
    assert.equal((await server.events('video.published')).length, 1);
  });
});
