// The package as a developer gets it: packed by npm, installed into a project of its own, and
// run by an older Node (the machine's, when it has one below 24) against the real service.
// Node refuses to strip types under node_modules, so this passes only if the package ships
// JavaScript and its exports point at it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/cli.ts';
import { startTestServer } from '../helpers/server.ts';

const run = promisify(execFile);

/** The first `node` on PATH outside node_modules (the machine's own), or this one. */
function otherNode(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir.includes('node_modules')) continue;
    const candidate = path.join(dir, 'node');
    if (fs.existsSync(candidate)) return candidate;
  }
  return process.execPath;
}

test('npm pack, npm install and import by name: a stream is created from plain JavaScript', async (t) => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tributary-sdk-'));
  t.after(() => {
    fs.rmSync(work, { recursive: true, force: true });
  });
  const packed = await run('npm', ['pack', './sdk', '--json', '--pack-destination', work], {
    cwd: REPO_ROOT,
  });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  assert.ok(info);
  const files = info.files.map((f) => f.path).sort();
  assert.ok(
    files.includes('dist/index.js') && files.includes('dist/index.d.ts') && files.includes('README.md'),
  );
  assert.deepEqual(
    files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json'),
    [],
    'only the build, the README and package.json are published',
  );
  assert.ok(!files.some((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), 'no TypeScript sources');

  const project = path.join(work, 'app');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), '{"name":"app","private":true,"type":"module"}\n');
  // The SDK's own dependency (tus-js-client) resolves from npm's cache when it can, else from the
  // registry as a developer's install does: `npm ci` caches tarballs, not the metadata a range
  // needs, so --offline fails on a fresh machine.
  await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(work, info.filename)],
    {
      cwd: project,
    },
  );

  const server = await startTestServer(t, { dialect: 'sqlite' });
  const account = await server.createAccount();
  fs.writeFileSync(
    path.join(project, 'main.js'),
    `import { Tributary, NotFoundError } from '@tributary/sdk';
const client = new Tributary({ apiKey: process.env.KEY, baseUrl: process.env.BASE_URL });
const stream = await client.streams.create({ title: 'From an installed package' });
const missing = await client.streams.get('str_missing').catch((e) => e);
console.log(JSON.stringify({ node: process.version, stream, notFound: missing instanceof NotFoundError }));
`,
  );
  const node = otherNode();
  const { stdout } = await run(node, ['main.js'], {
    cwd: project,
    env: { ...process.env, KEY: account.writeKey, BASE_URL: server.origin },
  });
  const result = JSON.parse(stdout) as {
    node: string;
    stream: { id: string; title: string };
    notFound: boolean;
  };
  t.diagnostic(`ran on Node ${result.node} (${node})`);
  assert.equal(result.stream.title, 'From an installed package');
  assert.equal(result.notFound, true);
  const stored = await server.request('GET', `/v1/streams/${result.stream.id}`, { key: account.readKey });
  assert.equal(stored.status, 200);
});
