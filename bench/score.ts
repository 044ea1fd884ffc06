/**
 * `npm run bench -- score [--repeat N]`
 *
 * Scoring the paper's bilingual instrument at full size: 7 topics × 2 languages × 2 framings × 64
 * iterations = 1,792 trials per model, × 11 models = 19,712 responses (Methods 4.3), from a
 * responses JSONL with a realistic mix of answers (bare labels, markdown, answer markers, short
 * explanations, option echoes, refusals, free text). Times `scoreToFolder` end to end (read and
 * check the bundle, read the responses, parse, key, write scores.jsonl, trials.csv,
 * instrument.csv, score.json). Target: under 2 s.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { scoreToFolder } from '../src/score/score.js';
import { ANSWER_FORMS, instrumentBundle } from './lib/instrument-bundle.js';

const args = process.argv.slice(3);
const i = args.indexOf('--repeat');
const repeat = i >= 0 ? Number(args[i + 1]) : 5;

const dir = await mkdtemp(path.join(os.tmpdir(), 'stimkit-bench-score-'));
try {
  const { bundle, trials } = await instrumentBundle(dir);
  const forms = ANSWER_FORMS;
  const lines: string[] = [];
  for (let m = 0; m < 11; m++) {
    trials.forEach((t, k) => {
      const f = forms[t.lang]!;
      lines.push(
        JSON.stringify({
          trial_id: t.id,
          model: `model-${String(m).padStart(2, '0')}`,
          response: f[(k * 7 + m * 3) % f.length],
        }),
      );
    });
  }
  const responses = path.join(dir, 'responses.jsonl');
  await writeFile(responses, `${lines.join('\n')}\n`);

  const times: number[] = [];
  let records = 0;
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    const res = await scoreToFolder({
      bundle,
      source: { kind: 'responses', file: responses },
      out: path.join(dir, `out-${r}`),
    });
    times.push(performance.now() - t0);
    records = res.header.counts.records;
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1]!;
  process.stdout.write(
    `score: ${records} instrument responses (${trials.length} trials × 11 models)\n`,
  );
  process.stdout.write(`  times (ms): ${times.map((t) => t.toFixed(0)).join(', ')}\n`);
  process.stdout.write(
    `  median ${median.toFixed(0)} ms (${((records / median) * 1000).toFixed(0)} responses/s); target < 2000 ms: ${median < 2000 ? 'met' : 'MISSED'}\n`,
  );
  process.stdout.write(`  peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB\n`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
