#!/usr/bin/env node
// Thin launcher. The compiled CLI lives in dist/ (built by `npm ci` through the prepare script),
// and bundled in dist/app/ (scripts/bundle.mjs), which starts faster. When the bundle is missing
// or older than the last compile (`tsc` run without `npm run build`), dist/ runs as it is, so the
// binary never runs older code than dist/ holds.
import { statSync } from 'node:fs';

const mtime = (rel) =>
  statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? null;
const compiled = mtime('../dist/build.tsbuildinfo');
const bundled = mtime('../dist/app/modules.json');
const current = bundled !== null && (compiled === null || bundled >= compiled);
const { main } = await import(current ? '../dist/app/main.js' : '../dist/cli/main.js');

process.exitCode = await main(process.argv);
