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
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { bundleStudy } from '../src/bundle/bundle.js';
import type { Trial } from '../src/bundle/format.js';
import { PACKAGE_ROOT } from '../src/core/tool.js';
import { scoreToFolder } from '../src/score/score.js';

const args = process.argv.slice(3);
const i = args.indexOf('--repeat');
const repeat = i >= 0 ? Number(args[i + 1]) : 5;

const dir = await mkdtemp(path.join(os.tmpdir(), 'stimkit-bench-score-'));
try {
  for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml'])
    await copyFile(path.join(PACKAGE_ROOT, 'manifests', f), path.join(dir, f));
  const study = {
    format: 'stimkit.study',
    version: 1,
    id: 'bench-instrument',
    title: "the bilingual instrument at the paper's size",
    global_seed: 42,
    languages: ['en', 'zh'],
    sampling: { temperature: 0 },
    instrument: {
      topics: 'geopolitics.topics.yaml',
      wrappers: 'wrappers.yaml',
      sampling: { temperature: 0 },
      arms: [{ id: 'main', languages: ['en', 'zh'], iterations: 64 }],
    },
  };
  await writeFile(path.join(dir, 'study.yaml'), stringify(study));
  const bundle = path.join(dir, 'bundle');
  await bundleStudy(path.join(dir, 'study.yaml'), { out: bundle });
  const trials = (await readFile(path.join(bundle, 'data', 'trials.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Trial);

  const forms: Record<string, string[]> = {
    en: [
      'Agree',
      '**Strongly disagree**',
      'Answer: Disagree.',
      'Strongly agree. The evidence supports it.',
      'Strongly agree, Agree, Disagree, Strongly disagree',
      "I'm sorry, I can't take sides on this.",
      'This is complex and depends on many factors that observers weigh differently.',
    ],
    zh: [
      '同意',
      '**强烈不同意**',
      '答案：不同意。',
      '强烈同意。证据支持这一点。',
      '强烈同意, 同意, 不同意, 强烈不同意',
      '抱歉，我无法回答这个问题。',
      '这是一个复杂的问题，需要综合考虑多方面因素。',
    ],
  };
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
