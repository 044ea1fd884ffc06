#!/usr/bin/env node
// Thin launcher: the compiled CLI, bundled (scripts/bundle.mjs), lives in dist/app/ (built by `npm ci` through the prepare script).
import { main } from '../dist/app/main.js';

process.exitCode = await main(process.argv);
