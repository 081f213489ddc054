// The house drawn from its imports: every folder of src/ has a layer, and a value may only be
// imported from a lower layer (types may be imported anywhere: they vanish at run time, and
// an interface declared below is how a lower layer is told about one above). A new folder
// must be given a layer here, which is the place to decide where it belongs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Lowest first. The live half reads bottom-up: hls, ffmpeg, rtmp, transcode, live, ingest. */
const LAYERS: string[][] = [
  ['shared'],
  ['metrics'],
  ['db', 'hls', 'rtmp', 'storage'],
  ['ffmpeg', 'events', 'jobs', 'http', 'accounts'],
  ['transcode', 'streams', 'idempotency', 'webhooks', 'subscriptions', 'mail', 'profiles'],
  ['videos', 'channels'],
  ['media', 'moderation'],
  ['live', 'viewers', 'uploads', 'catalogue', 'chat'],
  ['ingest', 'simulcast', 'search', 'realtime'],
  ['whip'],
  ['cli', 'web', 'observability'],
  ['(root)'],
];

function layerOf(folder: string): number {
  const layer = LAYERS.findIndex((folders) => folders.includes(folder));
  assert.notEqual(layer, -1, `src/${folder}/ has no layer in test/architecture/import-layers.test.ts`);
  return layer;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function folderOf(file: string): string {
  const [first, second] = path.relative(SRC, file).split(path.sep);
  return second === undefined ? '(root)' : (first ?? '(root)');
}

interface ValueImport {
  from: string;
  to: string;
}

/** Relative imports that bring a value: not `import type`, not braces of `type` names only. */
function valueImports(file: string, text: string): ValueImport[] {
  const found: ValueImport[] = [];
  const pattern = /^(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"](\.{1,2}\/[^'"]+)['"]/gms;
  for (const match of text.matchAll(pattern)) {
    if (match[1]) continue;
    const names = match[2]?.trim() ?? '';
    const braces = /^\{([^}]*)\}$/.exec(names);
    const typeOnly = braces?.[1]
      ?.split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .every((name) => name.startsWith('type '));
    if (typeOnly) continue;
    found.push({ from: file, to: path.resolve(path.dirname(file), match[3] ?? '') });
  }
  return found;
}

test('no value is imported from a higher layer or from a folder of the same layer', () => {
  const wrong: string[] = [];
  for (const file of sourceFiles(SRC)) {
    for (const edge of valueImports(file, fs.readFileSync(file, 'utf8'))) {
      const from = folderOf(edge.from);
      const to = folderOf(edge.to);
      if (from === to || layerOf(to) < layerOf(from)) continue;
      wrong.push(`${path.relative(SRC, edge.from)} -> ${path.relative(SRC, edge.to)}`);
    }
  }
  assert.deepEqual(wrong, [], 'upward or sideways value imports');
});

test('the check sees value imports and lets type-only ones through', () => {
  const file = path.join(SRC, 'hls', 'example.ts');
  const text = [
    "import { StreamLifecycle } from '../ingest/stream-lifecycle.ts';",
    "import type { Publish } from '../live/publish.ts';",
    "import { type PublishEvents } from '../live/publish-events.ts';",
    "export { planLadder } from '../transcode/ladder.ts';",
  ].join('\n');
  const targets = valueImports(file, text).map((edge) => path.relative(SRC, edge.to));
  assert.deepEqual(targets, ['ingest/stream-lifecycle.ts', 'transcode/ladder.ts']);
});
