// Bundles one service's TypeScript (and the workspace libs it imports) into dist/services/<name>/main.js.
// npm packages stay external: they load from node_modules at run time, so OpenTelemetry's
// require hooks and native modules behave exactly as in development.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
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
  if (name === 'gateway') copyApiReferenceViewer();
  console.log(`built services/${name} → dist/services/${name}/main.js`);
}

/**
 * The gateway serves the API reference at /docs with Scalar's standalone browser bundle, a dev
 * dependency: it is copied beside the gateway's bundle (dist/services/gateway/docs), which the image
 * ships without devDependencies (services/gateway/src/docs/api-reference.ts looks there first).
 */
function copyApiReferenceViewer() {
  const main = createRequire(import.meta.url).resolve('@scalar/api-reference');
  const directory = path.join(root, 'dist', 'services', 'gateway', 'docs');
  mkdirSync(directory, { recursive: true });
  copyFileSync(path.join(path.dirname(main), 'browser', 'standalone.js'), path.join(directory, 'api-reference.js'));
}
