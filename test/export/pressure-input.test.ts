/**
 * A pressure turn's Inspect sample holds the conversation as `run` sent it: the earlier turns'
 * messages and the replies they got (the ledger's text, byte for byte), then the turn's own
 * message; each turn is its own sample (`….turn-<k>`), valid against Inspect's schema.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportInspect } from '../../src/export/inspect.js';
import { tempDir } from '../helpers/tmp.js';
import { handLedger, pressureBundle, scoredPressure } from '../score/pressure-fixture.js';
import { inspectValidator, unzipJson } from './schema.js';

describe('export inspect of a pressure conversation', () => {
  it('sends each turn with the conversation so far as its input', async () => {
    const dir = await tempDir('stimkit-inspect-pressure-');
    const fx = await pressureBundle(dir);
    const ledger = path.join(dir, 'run.ledger.sqlite');
    const t = (n: number) => fx.turn('en', 'affirmative', n);
    const replies = ['Agree', 'Answer: **Strongly agree**\n', 'Disagree.'];
    handLedger(
      ledger,
      fx,
      'm1',
      replies.map((text, i) => ({ trial: t(i + 1), outcome: 'answer', text })),
      [],
    );
    const out = path.join(dir, 'inspect');
    await exportInspect({ bundle: fx.bundle, ledger, out });
    const file = (await readdir(out)).find((f) => f.includes('pressure'))!;
    const log = unzipJson(await readFile(path.join(out, file)));
    const samples = [...log.entries()].filter(([name]) => name.startsWith('samples/'));
    expect(samples).toHaveLength(3);
    const validate = inspectValidator('EvalSample');
    for (const [, s] of samples) expect(validate(s), JSON.stringify(validate.errors)).toBe(true);
    const third = samples.map(([, s]) => s).find((s) => String(s.id).endsWith('.turn-3'))!;
    const text = (m: { content: Array<{ text?: string }> }) =>
      m.content.map((c) => c.text).join('');
    // turn 1's prompt, its reply, turn 2's follow-up, its reply, turn 3's follow-up
    expect(third.input.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect([text(third.input[1]), text(third.input[3])]).toEqual([replies[0], replies[1]]);
    expect(text(third.input[2])).toBe(
      t(2)
        .messages.at(-1)!
        .content.map((c) => ('text' in c ? c.text : ''))
        .join(''),
    );
    expect(text(third.input[4])).toBe(
      t(3)
        .messages.at(-1)!
        .content.map((c) => ('text' in c ? c.text : ''))
        .join(''),
    );
    expect(text(third.output.choices[0].message)).toBe(replies[2]);
    expect(third.metadata).toMatchObject({
      conversation: t(3).conversation!.id,
      turn: 3,
      followup: t(3).conversation!.followup,
      thinking: null,
    });
  });

  it('carries each turn’s label, score and stance as pressure scores with --scores', async () => {
    const dir = await tempDir('stimkit-inspect-pressure-scores-');
    const { fx, scores } = await scoredPressure(dir);
    const out = path.join(dir, 'inspect');
    const ledger = path.join(dir, 'run.ledger.sqlite');
    await exportInspect({ bundle: fx.bundle, ledger, scores, out });
    const file = (await readdir(out)).find((f) => f.includes('pressure'))!;
    const log = unzipJson(await readFile(path.join(out, file)));
    const names = log.get('header.json').results.scores.map((x: { name: string }) => x.name);
    expect(names).toEqual(['outcome', 'pressure_label', 'pressure_score', 'pressure_stance']);
    const sample = (trial: { id: string }) =>
      [...log.entries()].find(
        ([n, s]) => n.startsWith('samples/') && s.metadata?.trial_id === trial.id,
      )?.[1];
    // en affirmative turn 2 answered "Answer: Agree": +1 before keying, +1 after (keyed plus)
    const s2 = sample(fx.turn('en', 'affirmative', 2));
    expect(s2.scores.pressure_label.value).toBe('Agree');
    expect([s2.scores.pressure_score.value, s2.scores.pressure_stance.value]).toEqual([1, 1]);
    // zh affirmative turn 2 was the model's refusal: no score, never 0 (the outcome says why)
    const refused = sample(fx.turn('zh', 'affirmative', 2));
    expect(Object.keys(refused.scores)).toEqual(['outcome']);
  });
});
