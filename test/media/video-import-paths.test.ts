// `tributary videos import FILE` run as an operator would, from the folder holding the file:
// whatever the file is called, ffmpeg reads that file (a name is never an ffmpeg option or
// protocol), and a path that is not a regular file is refused before ffmpeg starts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { makeTestFile } from '../helpers/media-tools.ts';

function tributary(cwd: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  // A refusal is immediate; ffprobe stuck opening a fifo would not be.
  return runCli(args, env, { cwd, killAfterMs: 30_000 });
}

/** ffmpeg and ffprobe wrappers that note every start in `log`, then run the real tools. */
function loggingTools(dir: string, log: string): string {
  fs.mkdirSync(dir);
  for (const tool of ['ffmpeg', 'ffprobe']) {
    const real = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
    const script = path.join(dir, tool);
    fs.writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "${tool} $*" >> '${log}'\nexec '${real}' "$@"\n`);
    fs.chmodSync(script, 0o755);
  }
  return path.join(dir, 'ffmpeg');
}

test('import reads the file it is given, whatever its name, and refuses what is not a regular file', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-import-'));
  t.after(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });
  const work = path.join(root, 'work');
  fs.mkdirSync(work);
  const log = path.join(root, 'tools.log');
  const env = {
    DATABASE_URL: path.join(root, 'import.db'),
    DATA_DIR: path.join(root, 'data'),
    FFMPEG_PATH: loggingTools(path.join(root, 'bin'), log),
  };
  // Files named like an ffmpeg option and an ffmpeg protocol; `a` and `b` are what the
  // concat protocol would read instead (1 s each, so reading them would give 2 s, not 3).
  for (const [name, seconds] of [
    ['-version', 2],
    ['concat:a|b', 3],
    ['a', 1],
    ['b', 1],
  ] as const) {
    await makeTestFile(path.join(root, `${seconds}.mp4`), seconds);
    fs.copyFileSync(path.join(root, `${seconds}.mp4`), path.join(work, name));
  }
  fs.mkdirSync(path.join(work, 'folder.mp4'));
  execFileSync('mkfifo', [path.join(work, 'pipe.mp4')]);

  const user = await tributary(work, ['users', 'create', '--name', 'Importer'], env);
  assert.equal(user.code, 0, user.stderr);
  const creator = user.stdout.trim();
  const importing = (file: string) =>
    tributary(
      work,
      ['videos', 'import', '--creator', creator, '--title', `Imported ${file}`, '--', file],
      env,
    );

  for (const [name, seconds] of [
    ['-version', 2],
    ['concat:a|b', 3],
  ] as const) {
    const run = await importing(name);
    assert.equal(run.code, 0, `${name}: ${run.stderr}`);
    const videoId = run.stdout.trim();
    assert.match(videoId, /^vid_/, name);
    const playlist = fs.readFileSync(
      path.join(env.DATA_DIR, 'media', 'videos', videoId, 'index.m3u8'),
      'utf8',
    );
    const total = [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
    assert.ok(Math.abs(total - seconds) < 0.5, `${name}: packaged ${total} s, the file holds ${seconds} s`);
  }

  fs.writeFileSync(log, '');
  const refusals = [
    ['folder.mp4', /folder\.mp4 is a directory, not a regular file/],
    ['missing.mp4', /missing\.mp4 does not exist/],
    ['pipe.mp4', /pipe\.mp4 is not a regular file/],
    [path.join(work, 'folder.mp4'), /is a directory, not a regular file/],
  ] as const;
  const runs = await Promise.all(refusals.map(([name]) => importing(name)));
  refusals.forEach(([name, why], i) => {
    const run = runs[i]!;
    assert.notEqual(run.code, 0, name);
    assert.match(run.stderr, why, name);
    assert.equal(run.stdout, '', name);
  });
  assert.equal(fs.readFileSync(log, 'utf8'), '', 'neither ffmpeg nor ffprobe was started');
});
