import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'tsup';

// The npm package @orquestra/node: one ES module (dist/index.mjs) and one CommonJS file
// (dist/index.js), each with its declarations (.d.mts / .d.ts), no runtime dependency.
// Run from the repository root: `npx tsup --config libs/sdk/tsup.config.ts` (nx: `nx build sdk`).

const here = __dirname;
const { version } = JSON.parse(readFileSync(path.join(here, 'package.json'), 'utf8')) as { version: string };

export default defineConfig({
  entry: { index: path.join(here, 'src/index.ts') },
  outDir: path.join(here, 'dist'),
  tsconfig: path.join(here, 'tsconfig.build.json'),
  format: ['esm', 'cjs'],
  outExtension: ({ format }) => ({ js: format === 'esm' ? '.mjs' : '.js' }),
  dts: true,
  platform: 'node',
  target: 'node20',
  clean: true,
  splitting: false,
  sourcemap: false,
  minify: false,
  treeshake: false,
  define: { __SDK_VERSION__: JSON.stringify(version) },
});
