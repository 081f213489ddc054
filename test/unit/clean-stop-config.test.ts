// CLEAN_STOP_GRACE_SECONDS is read and validated like the other ingest variables: 5 s unless
// set, 0 (end at once after a clean stop) to 3600, and a bad value is reported by name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('CLEAN_STOP_GRACE_SECONDS: 5 by default, 0 to 3600, anything else reported', () => {
  assert.equal(loadConfig({ DATABASE_URL: ':memory:' }).ingest.cleanStopGraceSeconds, 5);
  for (const good of ['0', '2', '3600']) {
    assert.equal(
      loadConfig({ DATABASE_URL: ':memory:', CLEAN_STOP_GRACE_SECONDS: good }).ingest.cleanStopGraceSeconds,
      Number(good),
    );
  }
  for (const bad of ['-1', '3601', '2.5', 'soon']) {
    assert.throws(
      () => loadConfig({ DATABASE_URL: ':memory:', CLEAN_STOP_GRACE_SECONDS: bad }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.problems.some(
          (p) => p === `CLEAN_STOP_GRACE_SECONDS must be a whole number from 0 to 3600 (got "${bad}")`,
        ),
      bad,
    );
  }
});
