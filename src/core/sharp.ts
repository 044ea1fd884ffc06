/**
 * sharp, loaded through `require`: its CommonJS build. Imported as ES modules, sharp and the
 * CommonJS packages it uses (semver, detect-libc, @img/colour) pass through Node's ES module
 * loader, which lexes every CommonJS source for its exports; that costs each thread that loads
 * sharp (the main thread and each variants worker) about twice the CPU of `require`. Every module
 * of stimkit takes sharp from here, so that one copy of it is loaded.
 */
import { createRequire } from 'node:module';
import type SharpModule from 'sharp';

const sharp = createRequire(import.meta.url)('sharp') as typeof SharpModule;

export default sharp;
