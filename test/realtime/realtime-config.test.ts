// REALTIME_MAX_VIEWERS and REALTIME_UDP_PORTS: read once, validated with the rest, reported clearly.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('the realtime settings default, parse, and refuse bad values with a clear message', () => {
  assert.deepEqual(loadConfig({}).realtime, { maxViewers: 200, network: {} });
  const set = loadConfig({ REALTIME_MAX_VIEWERS: '0', REALTIME_UDP_PORTS: '40000-40999' }).realtime;
  assert.deepEqual(set, { maxViewers: 0, network: { portRangeBegin: 40000, portRangeEnd: 40999 } });
  for (const bad of [
    { REALTIME_MAX_VIEWERS: '-1' },
    { REALTIME_UDP_PORTS: '5000' },
    { REALTIME_UDP_PORTS: '50000-40000' },
  ]) {
    assert.throws(
      () => loadConfig(bad),
      (error: unknown) => error instanceof ConfigError && /REALTIME_/.test(error.message),
      JSON.stringify(bad),
    );
  }
});
