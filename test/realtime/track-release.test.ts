// node-datachannel 0.33.4 crashes at cleanup() (the service's shutdown) when a track wrapper was
// collected before its close was announced (src/realtime/track-release.ts says why). These run
// the case in a child process: through track-release.ts it exits cleanly and lets the tracks go;
// without it, the same child dies of a signal (which shows the first one could fail).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const CHILD = new URL('../helpers/track-release-child.ts', import.meta.url).pathname;

function runChild(mode: 'watched' | 'unwatched') {
  return spawnSync(process.execPath, ['--expose-gc', CHILD, mode], { encoding: 'utf8', timeout: 30_000 });
}

test('closed connections whose tracks went through track-release are cleaned up without a crash', () => {
  const child = runChild('watched');
  assert.equal(child.signal, null, `child died of ${child.signal}: ${child.stderr}`);
  assert.equal(child.status, 0, child.stderr);
  const result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
  assert.equal(result.cleanedUp, true);
  // Held while libdatachannel closes them (20 tracks and 20 closing connections), then let go.
  assert.equal(result.heldAfterClose, 40);
  assert.equal(result.heldAfterRelease, 0);
});

test('without it, node-datachannel 0.33.4 crashes at cleanup (the defect track-release works around)', () => {
  const child = runChild('unwatched');
  assert.notEqual(
    child.signal,
    null,
    `the child exited (${child.status}) instead of crashing: node-datachannel may be fixed, and track-release.ts no longer needed`,
  );
});
