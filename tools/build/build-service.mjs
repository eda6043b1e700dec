// Bundles one service's TypeScript (and the workspace libs it imports) into dist/services/<name>/main.js.
// npm packages stay external: they load from node_modules at run time, so OpenTelemetry's
// require hooks and native modules behave exactly as in development.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node tools/build/build-service.mjs <service> [service…]');
  process.exit(2);
}

for (const name of names) {
  const entry = path.join(root, 'services', name, 'src', 'main.ts');
  if (!existsSync(entry)) {
    console.error(`no such service: ${name} (${entry})`);
    process.exit(2);
  }
  await build({
    entryPoints: [entry],
    outfile: path.join(root, 'dist', 'services', name, 'main.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    sourcemap: true,
    tsconfig: path.join(root, 'tsconfig.base.json'),
    logLevel: 'warning',
  });
  console.log(`built services/${name} → dist/services/${name}/main.js`);
}
