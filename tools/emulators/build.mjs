// Bundles every emulator's src/main.ts to dist/tools/emulators/<name>/main.js (CommonJS, node20).
// Dependencies stay external: run the output from the repository so node_modules resolves.
// Usage: node tools/emulators/build.mjs [name ...]   (default: all emulators)
import { build } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const emulatorsDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(emulatorsDir, '..', '..');
const requested = process.argv.slice(2);
const names = readdirSync(emulatorsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(emulatorsDir, entry.name, 'src', 'main.ts')))
  .map((entry) => entry.name)
  .filter((name) => requested.length === 0 || requested.includes(name));

if (names.length === 0) {
  console.error(`no emulator matches ${requested.join(', ') || '(any)'}`);
  process.exit(1);
}

for (const name of names) {
  const outfile = join(repoRoot, 'dist', 'tools', 'emulators', name, 'main.js');
  await build({
    entryPoints: [join(emulatorsDir, name, 'src', 'main.ts')],
    outfile,
    platform: 'node',
    bundle: true,
    packages: 'external',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  console.log(`built ${relative(repoRoot, outfile)}`);
}
