/**
 * `npm run bench -- redact [--reps N]`
 *
 * Redacting a 4 MiB text (the default reply cap) with a 51-character key: what the redactor
 * (src/core/redact.ts) costs on a reply of each shape: ordinary prose; text that nearly matches
 * everywhere (11-character prefixes of the key back to back, so every window is hashed and
 * none matches); the key and its base64 repeated (every window matches); one long line of a
 * single character. Prints the median and the slowest of N repetitions in ms. Target: each under
 * 2 s (linear in the text whatever the key; the score stage's target for a 4 MiB reply).
 */
import { Redactor } from '../src/core/redact.js';

const KEY = 'sk-proj-Hx7Qm2Lp9Vt4Rk8Nw3Zc6Yb1Jf5Gd0Sa-BENCHtestKEY';
const SIZE = 4 * 1024 * 1024;
const reps = Number(process.argv[process.argv.indexOf('--reps') + 1]) || 5;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

const shapes: Record<string, string> = {
  prose: fill('The museum photograph shows a horse by a wooden fence, early morning. '),
  'near-miss': fill(KEY.slice(0, 11)),
  'key and base64': fill(`${KEY} ${Buffer.from(`Bearer ${KEY}`).toString('base64')} `),
  'one character': fill(' '),
};

const r = new Redactor([KEY]);
for (const [name, text] of Object.entries(shapes)) {
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    r.redact(text);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  const median = ms[ms.length >> 1]!;
  const worst = ms[ms.length - 1]!;
  process.stdout.write(
    `${name.padEnd(16)} 4 MiB: median ${median.toFixed(0)} ms, slowest ${worst.toFixed(0)} ms${worst < 2000 ? '' : '  (over the 2 s target)'}\n`,
  );
}
