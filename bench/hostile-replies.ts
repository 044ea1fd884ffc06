/**
 * `npm run bench -- hostile-replies [--bytes N] [--shape NAME]`
 *
 * Scores a reply of each hostile shape (bench/lib/hostile-replies.ts: runs of spaces, tabs, `#`,
 * `*`, `|`, `>`, backticks, nested list markers, digits with dots, one long line, openers
 * that never close, and an option label repeated without punctuation: `agree agree …`, 同意同意…)
 * through the whole per-response scorer: every audit column of the VLM scorer
 * and the instrument's forced-choice parser, for an English and for a Chinese trial. The reply is
 * as long as `run` accepts (4 MiB) unless `--bytes` says otherwise. Prints seconds per reply, wall
 * clock and CPU (user + system: what the reply costs on a machine that others share). Target:
 * under 2 s each.
 */
import { HOSTILE_SHAPES, REPLY_CAP_BYTES, replyScorer } from './lib/hostile-replies.js';

const args = process.argv.slice(3);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const bytes = Number(opt('--bytes') ?? REPLY_CAP_BYTES);
const only = opt('--shape');
const TARGET_S = 2;

const scorers = { en: replyScorer('en'), zh: replyScorer('zh') };
for (const score of Object.values(scorers))
  score('# A heading\n\n- **bold** 中文\n\nAnswer: Agree.');

/** Wall and CPU (user + system) seconds of one call. */
function timed(f: () => unknown): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

let missed = 0;
process.stdout.write(
  `hostile-replies: ${bytes} bytes per reply; seconds per reply, wall (cpu), English and Chinese trial; target < ${TARGET_S} s\n`,
);
for (const [name, build] of Object.entries(HOSTILE_SHAPES)) {
  if (only && name !== only) continue;
  const reply = build(bytes);
  const t = { en: timed(() => scorers.en(reply)), zh: timed(() => scorers.zh(reply)) };
  const worst = Math.max(t.en.wall, t.zh.wall);
  if (worst >= TARGET_S) missed++;
  const cell = (x: { wall: number; cpu: number }) =>
    `${x.wall.toFixed(3).padStart(7)} (${x.cpu.toFixed(3)})`;
  process.stdout.write(
    `  ${name.padEnd(16)} en ${cell(t.en)}  zh ${cell(t.zh)}  ${worst < TARGET_S ? 'met' : 'MISSED'}\n`,
  );
}
process.stdout.write(
  missed === 0
    ? 'all met\n'
    : `${missed} MISSED (wall time: on a busy machine, compare the cpu figures)\n`,
);
