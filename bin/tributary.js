#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=12
// The `tributary` command. TypeScript runs natively on Node 24 (type stripping), so the
// CLI loads its source directly. A smaller young generation (12 MB semi-spaces instead of V8's
// default for a large machine) keeps the server's peak memory down at no measured cost in
// throughput, and so does limiting glibc's malloc to two arenas: V8's helper threads each
// got an arena of their own, and the memory freed in them stayed resident. `npm start` sets
// the same.
import process from 'node:process';

const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `tributary needs Node.js 24 or newer; this is ${process.version}.\n` +
      'Run it as `npx tributary ...` from the project folder (npm puts the pinned Node 24 from\n' +
      'node_modules/.bin first on PATH), or install Node.js 24.\n',
  );
  process.exit(2);
}
await import('../src/main.ts');
