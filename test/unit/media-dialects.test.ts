// mediaDialects decides which real-time media tests also run on PostgreSQL: a mistake there
// silently drops PostgreSQL coverage, so its rule is checked on a small test file of its own,
// run by a real `node --test` child. The children only need TEST_POSTGRES_URL to be set: the
// fixture's tests touch no database.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const run = promisify(execFile);
const helper = path.join(import.meta.dirname, '../helpers/databases.ts');

function fixture(t: { after(fn: () => void): void }, smoke: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-media-dialects-'));
  t.after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const file = path.join(dir, 'fixture.test.ts');
  fs.writeFileSync(
    file,
    `import { describe } from 'node:test';
import { mediaDialects } from ${JSON.stringify(helper)};
for (const { dialect, test } of mediaDialects(${JSON.stringify(smoke)})) {
  describe(\`on \${dialect}\`, () => {
    test('smoke', async () => {});
    test('heavy', async () => {});
  });
}
`,
  );
  return file;
}

async function tap(file: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    TEST_POSTGRES_URL: 'postgres://unused@127.0.0.1:1/none',
    ...env,
  };
  if (env.TEST_MEDIA_POSTGRES === undefined) delete childEnv.TEST_MEDIA_POSTGRES;
  // Else the child would report to this runner instead of printing TAP.
  delete childEnv.NODE_TEST_CONTEXT;
  try {
    const { stdout } = await run(process.execPath, ['--test', '--test-reporter=tap', file], {
      env: childEnv,
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

/** `dialect name: ok|skip|not ok` for each test the child reported, in order. */
function outcomes(out: string): string[] {
  const results: string[] = [];
  let suite = '';
  for (const line of out.split('\n')) {
    const subtest = /^# Subtest: on (\w+)$/.exec(line);
    if (subtest) suite = subtest[1]!;
    const result = /^\s+(not ok|ok) \d+ - (\w+)( # SKIP)?/.exec(line);
    if (result) results.push(`${suite} ${result[2]!}: ${result[3] ? 'skip' : result[1]!}`);
  }
  return results;
}

test('the smoke test runs on both dialects, the others on SQLite only and are reported skipped', async (t) => {
  const { code, out } = await tap(fixture(t, 'smoke'), {});
  assert.equal(code, 0, out);
  assert.deepEqual(outcomes(out), [
    'sqlite smoke: ok',
    'sqlite heavy: ok',
    'postgres smoke: ok',
    'postgres heavy: skip',
  ]);
  assert.match(out, /# SKIP real-time media: SQLite only/);
});

test('TEST_MEDIA_POSTGRES=all runs every test on both', async (t) => {
  const { code, out } = await tap(fixture(t, 'smoke'), { TEST_MEDIA_POSTGRES: 'all' });
  assert.equal(code, 0, out);
  assert.deepEqual(outcomes(out), [
    'sqlite smoke: ok',
    'sqlite heavy: ok',
    'postgres smoke: ok',
    'postgres heavy: ok',
  ]);
});

test('a smoke name that no test has fails the file', async (t) => {
  const { code, out } = await tap(fixture(t, 'smoke test renamed'), {});
  assert.notEqual(code, 0, out);
  assert.match(out, /no test here is named "smoke test renamed"/);
});
