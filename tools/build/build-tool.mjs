// Bundles a tool's entry point (workspace code included, npm packages external).
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const [entry, outfile] = process.argv.slice(2);
if (!entry || !outfile) {
  console.error('usage: node tools/build/build-tool.mjs <entry.ts> <outfile.js>');
  process.exit(2);
}
await build({
  entryPoints: [path.join(root, entry)],
  outfile: path.join(root, outfile),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: true,
  tsconfig: path.join(root, 'tsconfig.base.json'),
  logLevel: 'warning',
});
console.log(`built ${entry} → ${outfile}`);
