// The SDK's committed generated files must be what the current code produces: the OpenAPI types
// from the document the service serves (`npm run sdk:types`), and sdk/dist from sdk/src
// (`npm run sdk:build`). Either drifting fails here, naming the command that fixes it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { compileDist, committedDist } from '../../sdk/scripts/build.ts';
import { generate, GENERATED_DIR } from '../../sdk/scripts/generate.ts';

test('sdk/src/generated is what the served OpenAPI document generates (npm run sdk:types)', async () => {
  const expected = await generate();
  assert.deepEqual(fs.readdirSync(GENERATED_DIR).sort(), Object.keys(expected).sort());
  for (const [name, text] of Object.entries(expected)) {
    const committed = fs.readFileSync(path.join(GENERATED_DIR, name), 'utf8');
    assert.ok(committed === text, `sdk/src/generated/${name} is out of date: run npm run sdk:types`);
  }
  // The document is the service's: every operation it routes has a typed entry.
  assert.match(expected['routes.ts'] ?? '', /createStream: \{ method: 'POST', path: '\/v1\/streams' \}/);
  assert.match(expected['openapi.ts'] ?? '', /createStream: \{/);
});

test('sdk/dist is sdk/src compiled (npm run sdk:build)', () => {
  const expected = compileDist();
  const committed = committedDist();
  assert.ok(expected.has('index.js') && expected.has('index.d.ts'));
  assert.deepEqual([...committed.keys()].sort(), [...expected.keys()].sort(), 'run npm run sdk:build');
  for (const [name, text] of expected) {
    assert.ok(committed.get(name) === text, `sdk/dist/${name} is out of date: run npm run sdk:build`);
  }
});
