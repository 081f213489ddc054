#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=12
// The `tributary` command. TypeScript runs natively on Node 24 (type stripping), so the CLI
// loads its source directly. The line above is where the server's memory settings live: a
// smaller young generation (12 MB semi-spaces instead of V8's default for a large machine)
// keeps its peak memory down at no measured cost in throughput, and so does limiting glibc's
// malloc to two arenas (V8's helper threads each got an arena of their own, and the memory
// freed in them stayed resident). `npm start` sets the same; a test keeps the two equal.
//
// Both must be in place when Node starts (glibc reads MALLOC_ARENA_MAX before any JavaScript
// runs), so when this file is started some other way (`node bin/tributary.js serve`, or by a
// Node older than 24), it runs itself again in a Node 24 child that has them: the project's
// pinned one (the `node` dev dependency) unless this Node is already 24. That child gets the
// same arguments, standard streams and signals, and its exit code becomes this one's.
// Plain JavaScript that Node 20 can parse, for that reason.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const RELAUNCHED = 'TRIBUTARY_RELAUNCHED';
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const nodeMajor = Number(process.versions.node.split('.')[0]);
// Only the long-running commands need the memory settings; the others start once, quickly.
const longRunning = ['serve', 'worker', 'media-worker'].includes(process.argv[2] ?? '');
const settings = shebangSettings();
// An operator's own value (say MALLOC_ARENA_MAX=4, or another semi-space size) is kept.
const missingEnv = Object.entries(settings.env).filter(([name]) => process.env[name] === undefined);
const missingFlags = settings.flags.filter((flag) => !hasNodeFlag(flag.split('=')[0]));
const relaunched = process.env[RELAUNCHED] === '1';

if (
  nodeMajor >= 24 &&
  (relaunched || !longRunning || (missingEnv.length === 0 && missingFlags.length === 0))
) {
  // Under npm (`npx tributary serve`) the process's parent is a shell that a SIGTERM sent to npm
  // kills without passing it on, and the launching process above may be killed outright: either
  // way the server would be left running, orphaned, holding its ports. It stops instead.
  if (longRunning && (relaunched || process.env.npm_lifecycle_event !== undefined)) stopWhenOrphaned();
  enableCompileCache();
  await import('../src/main.ts');
} else if (relaunched) {
  process.stderr.write(`tributary needs Node.js 24 or newer; this is ${process.version}.\n`);
  process.exit(2);
} else {
  relaunch();
}

/** `#!/usr/bin/env -S NAME=VALUE ... node --flag ...` -> its assignments and its Node flags. */
function shebangSettings() {
  const words = fs.readFileSync(SELF, 'utf8').split('\n')[0].split(/\s+/);
  const node = words.indexOf('node');
  return {
    env: Object.fromEntries(
      words
        .slice(words.indexOf('-S') + 1, node)
        .map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
    ),
    flags: words.slice(node + 1).filter((word) => word.startsWith('--')),
  };
}

/**
 * Node keeps each module's type-stripped source and V8's compiled code in this folder, so a
 * start that finds them there neither strips types again nor loads the stripper (a WebAssembly
 * module): the server starts faster and holds about 17 MB less. The folder is in the
 * installation's node_modules, next to the code it was made from and writable by whoever may
 * change that code: a shared folder such as /tmp would let another user hand the process code
 * to run. When it cannot be written (a read-only installation), Node runs without it.
 * NODE_COMPILE_CACHE chooses another folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
function enableCompileCache() {
  if (process.env.NODE_COMPILE_CACHE !== undefined || process.env.NODE_DISABLE_COMPILE_CACHE !== undefined) {
    return;
  }
  nodeModule.enableCompileCache(
    path.join(path.dirname(SELF), '..', 'node_modules', '.cache', 'tributary-compile'),
  );
}

function hasNodeFlag(name) {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return given.some((arg) => arg === name || arg.startsWith(`${name}=`));
}

function stopWhenOrphaned() {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, 500);
  watch.unref();
}

function pinnedNode() {
  try {
    const manifest = createRequire(import.meta.url).resolve('node/package.json');
    return path.join(path.dirname(manifest), 'bin', 'node');
  } catch {
    process.stderr.write(
      `tributary needs Node.js 24 or newer; this is ${process.version}, and the project's pinned\n` +
        'Node 24 (the `node` dev dependency) is not installed: run `npm install` in the project folder.\n',
    );
    process.exit(2);
  }
}

function relaunch() {
  const child = spawn(
    nodeMajor >= 24 ? process.execPath : pinnedNode(),
    [...process.execArgv, ...missingFlags, SELF, ...process.argv.slice(2)],
    {
      env: { ...process.env, ...Object.fromEntries(missingEnv), [RELAUNCHED]: '1' },
      stdio: 'inherit',
      // Its own process group: a terminal's Ctrl-C reaches this process only, which passes it
      // on, so every signal reaches the child once, whoever sent it.
      detached: true,
    },
  );
  /** @param {NodeJS.Signals} signal */
  const forward = (signal) => child.kill(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  child.on('error', (error) => {
    process.stderr.write(`tributary: could not start Node: ${error.message}\n`);
    process.exit(2);
  });
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Ended by a signal: end the same way, so whoever started this sees what happened.
    for (const forwarded of FORWARDED_SIGNALS) process.off(forwarded, forward);
    process.kill(process.pid, signal);
  });
}
