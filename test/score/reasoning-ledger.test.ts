/**
 * `stimkit score --ledger` reads the reasoning channel the run recorded: a ledger written through
 * the ledger writer with each result's reasoning text, visibility and tokens (as run, batch and
 * sim record them) gives score rows with the same visibility and tokens (null where the result
 * recorded none), and the reasoning is read for the flags as from a responses file.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/core/redact.js';
import { acquireLock, closeWriting } from '../../src/ledger/lock.js';
import { openLedgerDb } from '../../src/ledger/open.js';
import { ensureRun, insertTrials, registerModel } from '../../src/ledger/runs.js';
import { LedgerWriter, type FinalResult } from '../../src/ledger/write.js';
import { ScoreLine } from '../../src/score/format.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { reasoningBundle } from './reasoning-fixture.js';
import { heavyLimit } from '../helpers/limits.js';

describe('score --ledger: the reasoning channel', () => {
  it(
    'carries visibility and tokens from the ledger to every score row',
    async () => {
      const dir = await tempDir('stimkit-reasoning-ledger-');
      const fx = await reasoningBundle(dir, ['on', 'off']);
      const file = path.join(dir, 'run.sqlite');
      const db = openLedgerDb(file);
      const lock = acquireLock(db, file, 'stimkit test');
      const run = ensureRun(db, file, fx.digest, 'reasoning-fixture');
      insertTrials(db, run.run_id, fx.trials);
      registerModel(db, file, run, 'm', 'openai', null, { origin: 'US' });
      const w = new LedgerWriter(db, run.run_id, fx.digest, new Redactor([]));
      const finals = new Map<string, Partial<FinalResult>>();
      fx.trials.forEach((t, i) => {
        const on = t.thinking === 'on';
        const f: Partial<FinalResult> = on
          ? i === 0
            ? {
                response_text: "I'm sorry, but I can't help with that.",
                reasoning_text: '',
                reasoning_visibility: 'empty',
                reasoning_tokens: 0,
              }
            : {
                response_text: 'A picture.',
                reasoning_text: 'Eileen Collins and Falcon 9',
                reasoning_visibility: 'full',
                reasoning_tokens: 40 + i,
              }
          : i === 1
            ? // a count that is no count (a hostile server's 2.5 tokens) scores as an empty cell
              { response_text: 'A picture.', reasoning_visibility: 'absent', reasoning_tokens: 2.5 }
            : { response_text: 'A picture.' }; // recorded without the channel
        finals.set(t.id, f);
        const id = w.claim('m', t.id, 1, 'run', `req-${i}`, null) as number;
        w.recordFinal(
          id,
          'm',
          t.id,
          { outcome: 'answer' },
          { outcome: 'answer', request_sha256: `req-${i}`, attempts: 1, ...f },
        );
      });
      closeWriting(db, lock, false);
      const out = path.join(dir, 'scores');
      const r = await runCli([
        'score',
        '--bundle',
        fx.bundle,
        '--ledger',
        file,
        '--out',
        out,
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        'reasoning: thought suppressed in 1 of 4 row(s) where it can be told, reasoning exceeds the answer in 1 of 3',
      );
      const lines = (await readFile(path.join(out, 'scores.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((l) => ScoreLine.parse(JSON.parse(l)));
      expect(lines).toHaveLength(8);
      for (const l of lines) {
        const f = finals.get(l.trial)!;
        expect([l.reasoning_visibility, l.reasoning_tokens]).toEqual([
          f.reasoning_visibility ?? null,
          f.reasoning_tokens === 2.5 ? null : (f.reasoning_tokens ?? null),
        ]);
      }
      const first = lines.find((l) => l.trial === fx.trials[0]!.id)!;
      expect(
        (first.parse as { reasoning: { thought_suppressed: boolean } }).reasoning
          .thought_suppressed,
      ).toBe(true);
    },
    heavyLimit(17),
  );
});
