// Compiles sdk/src into sdk/dist (JavaScript and .d.ts, committed) with sdk/tsconfig.build.json.
// `npm run sdk:build` writes it and removes files no longer produced; test/sdk/dist.test.ts
// compiles in memory and fails when the committed sdk/dist differs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SDK = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST_DIR = path.join(SDK, 'dist');

/** The compiled files by path relative to sdk/dist; throws on any compile error. */
export function compileDist(): Map<string, string> {
  const configPath = path.join(SDK, 'tsconfig.build.json');
  const read = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const config = ts.parseJsonConfigFileContent(read.config, ts.sys, SDK, undefined, configPath);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const files = new Map<string, string>();
  const result = program.emit(undefined, (file, text) => {
    files.set(path.relative(DIST_DIR, file), text);
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (diagnostics.length > 0) {
    throw new Error(
      ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (name) => name,
        getCurrentDirectory: () => SDK,
        getNewLine: () => '\n',
      }),
    );
  }
  return files;
}

/** Every file under sdk/dist, by relative path. */
export function committedDist(): Map<string, string> {
  const files = new Map<string, string>();
  if (!fs.existsSync(DIST_DIR)) return files;
  for (const entry of fs.readdirSync(DIST_DIR, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    files.set(path.relative(DIST_DIR, full), fs.readFileSync(full, 'utf8'));
  }
  return files;
}

if (import.meta.main) {
  const files = compileDist();
  fs.rmSync(DIST_DIR, { recursive: true, force: true });
  for (const [name, text] of files) {
    const full = path.join(DIST_DIR, name);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  }
  process.stderr.write(`wrote ${files.size} files to sdk/dist\n`);
}
