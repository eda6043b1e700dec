// Bundles the owner's dashboard (services/dashboard, Preact + Chart.js) into static files:
//   dist/dashboard/index.html             the one page (the gateway answers it for every /dashboard route)
//   dist/dashboard/assets/app-<hash>.js   the application, minified, with its source map
//   dist/dashboard/assets/app-<hash>.css  the styles
// Asset names carry a content hash, so the gateway can serve them as immutable.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const source = path.join(root, 'services/dashboard/src');
const out = path.join(root, 'dist/dashboard');

rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, 'assets'), { recursive: true });

const result = await build({
  entryPoints: { app: path.join(source, 'main.tsx') },
  outdir: path.join(out, 'assets'),
  entryNames: '[name]-[hash]',
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  sourcemap: true,
  metafile: true,
  legalComments: 'linked',
  tsconfig: path.join(root, 'services/dashboard/tsconfig.json'),
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
const script = outputs.find((file) => /^app-.*\.js$/.test(file));
const style = outputs.find((file) => /^app-.*\.css$/.test(file));
if (!script || !style) throw new Error(`dashboard build produced no script or style: ${outputs.join(', ')}`);

const html = readFileSync(path.join(source, 'index.html'), 'utf8')
  .replace('{{SCRIPT}}', `/dashboard/assets/${script}`)
  .replace('{{STYLE}}', `/dashboard/assets/${style}`);
writeFileSync(path.join(out, 'index.html'), html);
console.log(`built services/dashboard → dist/dashboard (${script}, ${style})`);
