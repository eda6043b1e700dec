// Builds the installable package (libs/cli/dist/main.js): the CLI's own code in one file, with
// the SDK (@orquestra/node) and commander left as the package's dependencies. The monorepo's
// build (tools/build/build-all.sh) makes dist/libs/cli/main.js instead, with the SDK's source
// bundled in, for the stack and the end-to-end suite.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const outfile = path.join(here, 'dist', 'main.js');
await build({
  entryPoints: [path.join(here, 'src', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['@orquestra/node', 'commander'],
  sourcemap: true,
  logLevel: 'warning',
});
chmodSync(outfile, 0o755);
console.log(`built ${path.relative(process.cwd(), outfile)}`);
