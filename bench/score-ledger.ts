/**
 * `npm run bench -- score-ledger [--gb N] [--keep DIR]`
 *
 * Scoring a large run ledger in bounded memory. Builds a ledger of about N GB (default 1) in the
 * ledger's own format (through the ledger writer): the paper's instrument (1,792 trials) answered
 * by as many models as it takes, each answer a label followed by 2–6 KB of explanation in the
 * prompt's language. Then `scoreToFolder` reads it in a child process, whose peak RSS is the
 * figure. Target: under 500 MiB.
 *
 * With `--keep DIR` the ledger is built in DIR once and reused by later runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureRun, insertTrials, registerModel } from '../src/ledger/runs.js';
import { openLedgerDb } from '../src/ledger/open.js';
import { LedgerWriter } from '../src/ledger/write.js';
import { Redactor } from '../src/core/redact.js';
import { ANSWER_FORMS, instrumentBundle } from './lib/instrument-bundle.js';

const TARGET_MIB = 500;
const args = process.argv.slice(3);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

/** Score in this (fresh) process and print its peak RSS. */
async function child(bundle: string, ledger: string, out: string): Promise<void> {
  const { scoreToFolder } = await import('../src/score/score.js');
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const r = await scoreToFolder({ bundle, source: { kind: 'ledger', file: ledger }, out });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const rss = process.resourceUsage().maxRSS / 1024; // KiB → MiB
  process.stdout.write(
    JSON.stringify({
      records: r.header.counts.records,
      seconds,
      cpu_seconds: (cpu.user + cpu.system) / 1e6,
      peak_rss_mib: rss,
    }),
  );
}

const FILLER: Record<string, string[]> = {
  en: [
    'Observers weigh the historical record, the economic ties and the security arrangements differently.',
    'Official statements from both governments frame the question in terms of sovereignty and stability.',
    'Independent analysts point to trade data, public opinion surveys and the positions of neighbouring states.',
    'The answer depends on which sources one trusts and on how one reads the long history of the dispute.',
  ],
  zh: [
    '观察人士对历史记录、经济联系和安全安排的看法各不相同。',
    '两国政府的官方声明都从主权和稳定的角度来阐述这一问题。',
    '独立分析人士指出了贸易数据、民意调查以及邻国的立场。',
    '答案取决于人们信任哪些来源，以及如何解读这一争端的悠久历史。',
  ],
};

/** A long answer: a label in one of the usual forms, then 2–6 KB of explanation. */
function answer(lang: string, k: number): string {
  const forms = ANSWER_FORMS[lang]!;
  const filler = FILLER[lang]!;
  const bytes = 2048 + (((k * 2654435761) >>> 0) % 4096);
  const parts = [forms[k % forms.length]!];
  let size = Buffer.byteLength(parts[0]!);
  for (let i = k; size < bytes; i++) {
    const s = filler[i % filler.length]!;
    parts.push(s);
    size += Buffer.byteLength(s) + 1;
  }
  return parts.join('\n');
}

async function buildLedger(dir: string, gb: number): Promise<{ bundle: string; ledger: string }> {
  const { bundle, digest, trials } = await instrumentBundle(dir);
  const ledger = path.join(dir, 'big.ledger.sqlite');
  const db = openLedgerDb(ledger);
  const run = ensureRun(db, ledger, digest, 'bench-instrument');
  insertTrials(db, run.run_id, trials);
  const writer = new LedgerWriter(db, run.run_id, digest, new Redactor([]));
  const perModel = trials.length * 5632; // about 4 KB per answer, 5.5 KB per result on disk
  const models = Math.ceil((gb * 1024 ** 3) / perModel);
  for (let m = 0; m < models; m++) {
    const model = `model-${String(m).padStart(3, '0')}`;
    registerModel(db, ledger, run, model, 'openai', { api_model: model }, { origin: 'unknown' });
    const rows = trials.map((t, k) => ({
      model,
      trialId: t.id,
      attempt: 1,
      source: 'run',
      requestSha256: '0'.repeat(64),
      endpoint: null,
      end: { outcome: 'answer' as const },
      final: {
        outcome: 'answer' as const,
        request_sha256: '0'.repeat(64),
        response_text: answer(t.lang, k + m * 7),
        finish_reason: 'stop',
        attempts: 1,
      },
    }));
    writer.recordMany(rows);
    if (m % 20 === 19) process.stderr.write(`  ${m + 1}/${models} models written\n`);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { bundle, ledger };
}

async function parent(): Promise<void> {
  const gb = Number(flag('--gb') ?? 1);
  const keep = flag('--keep');
  const dir = keep ?? (await mkdtemp(path.join(os.tmpdir(), 'stimkit-bench-score-ledger-')));
  try {
    await mkdir(dir, { recursive: true });
    const ledger = path.join(dir, 'big.ledger.sqlite');
    const built = existsSync(ledger)
      ? { bundle: path.join(dir, 'bundle'), ledger }
      : await buildLedger(dir, gb);
    const size = (await stat(built.ledger)).size;
    const out = path.join(dir, 'scores');
    const bench = fileURLToPath(import.meta.url);
    const r = spawnSync(
      process.execPath,
      ['--import', 'tsx', bench, 'score-ledger', '--child', built.bundle, built.ledger, out],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    if (r.status !== 0) throw new Error(`scoring failed:\n${r.stderr}`);
    const got = JSON.parse(r.stdout) as {
      records: number;
      seconds: number;
      cpu_seconds: number;
      peak_rss_mib: number;
    };
    process.stdout.write(
      `score-ledger: a ${(size / 1024 ** 3).toFixed(2)} GiB ledger, ${got.records} responses, scored in ${got.seconds.toFixed(1)} s (${got.cpu_seconds.toFixed(1)} s of CPU)\n`,
    );
    process.stdout.write(
      `  peak RSS ${got.peak_rss_mib.toFixed(0)} MiB; target < ${TARGET_MIB} MiB: ${got.peak_rss_mib < TARGET_MIB ? 'met' : 'MISSED'}\n`,
    );
  } finally {
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}

if (args[0] === '--child') await child(args[1]!, args[2]!, args[3]!);
else await parent();
