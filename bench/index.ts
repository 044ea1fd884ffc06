/**
 * `npm run bench -- <name>`: runs bench/<name>.ts, which prints its figures. Speed and memory
 * targets live here, never in tests.
 */
import { readdirSync } from 'node:fs';

const available = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
  .map((f) => f.slice(0, -3))
  .sort();
const name = process.argv[2];
if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <${available.join('|') || 'name'}> [args]\n`);
  process.exit(2);
}
await import(`./${name}.ts`);
