/**
 * A setup file of every test project (vitest.config.ts): at the end of each test file, the
 * temporary folders its tests made with `tempDir` (test/helpers/tmp.ts) are deleted. Setup files
 * run before each file, also when the files of a worker share their modules, and their `afterAll`
 * runs after the file's own (vitest runs after-hooks in reverse order).
 */
import { afterAll } from 'vitest';
import { removeTempDirs } from './tmp.js';

afterAll(removeTempDirs);
