/**
 * Thinking as a paired design factor (a study's `thinking: [on, off]`): every trial is planned
 * once per level with sampling.thinking true and false, the counts double exactly, ids are
 * distinct and stable, each pair shares the id the trial has without the factor, and the models'
 * request builders send each trial's own setting. A sampling that sets thinking beside the factor
 * is refused.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import type { Trial } from '../../src/bundle/format.js';
import { pairId } from '../../src/bundle/trial-id.js';
import { buildRequest } from '../../src/client/request.js';
import { anthropicLimits } from '../../src/client/providers/anthropic.js';
import { ModelSpec } from '../../src/models/schema.js';
import { stimkitRejection } from '../helpers/errors.js';
import { tempDir } from '../helpers/tmp.js';
import { reasoningBundle } from '../score/reasoning-fixture.js';
import { heavyLimit } from '../helpers/limits.js';

let plain: Trial[];
let paired: Trial[];
let pairedDir: string;
let pairedDigest: string;

beforeAll(async () => {
  plain = (await reasoningBundle(await tempDir('stimkit-thinking-off-'))).trials;
  pairedDir = await tempDir('stimkit-thinking-');
  const fx = await reasoningBundle(pairedDir, ['on', 'off']);
  paired = fx.trials;
  pairedDigest = fx.digest;
}, heavyLimit(7));

describe('the thinking factor', () => {
  it('plans each trial once per level, with exact counts', async () => {
    expect(plain).toHaveLength(4);
    expect(plain.every((t) => t.thinking === undefined && t.sampling.thinking === undefined)).toBe(
      true,
    );
    expect(paired).toHaveLength(8);
    expect(new Set(paired.map((t) => t.id)).size).toBe(8);
    expect(paired.map((t) => [t.thinking, t.sampling.thinking])).toEqual(
      Array.from({ length: 4 }, () => [
        ['on', true],
        ['off', false],
      ]).flat(),
    );
    const counts = JSON.parse(
      await readFile(path.join(pairedDir, 'bundle', 'data', 'counts.json'), 'utf8'),
    );
    expect(counts.trials).toBe(8);
    const header = JSON.parse(
      await readFile(path.join(pairedDir, 'bundle', 'data', 'bundle.json'), 'utf8'),
    );
    expect(header.trial_id).toMatch(/seed, thinking\}\)$/);
  });

  it('pairs share the id the trial has without the factor; the rest of the trial is the same', () => {
    const byPair = new Map<string, Trial[]>();
    for (const t of paired) byPair.set(pairId(t), [...(byPair.get(pairId(t)) ?? []), t]);
    expect([...byPair.keys()].sort()).toEqual(plain.map((t) => t.id).sort());
    for (const t of plain) {
      const [on, off] = byPair.get(t.id)!;
      const strip = ({
        id: _id,
        thinking: _t,
        sampling: { thinking: _s, ...s },
        ...rest
      }: Trial) => ({ ...rest, sampling: s });
      expect(strip(on!)).toEqual(strip(t));
      expect(strip(off!)).toEqual(strip(t));
      expect(pairId(t)).toBe(t.id);
    }
  });

  it('is stable: the same study seals to the same digest', async () => {
    const again = await reasoningBundle(await tempDir('stimkit-thinking-again-'), ['on', 'off']);
    expect(again.digest).toBe(pairedDigest);
    expect(again.trials.map((t) => t.id)).toEqual(paired.map((t) => t.id));
  });

  it("sends each trial's own setting to every vendor", () => {
    const on = paired.find((t) => t.thinking === 'on')!;
    const off = paired.find((t) => t.thinking === 'off')!;
    const conv = (t: Trial) => ({ messages: t.messages, sampling: t.sampling, seed: t.seed });
    const vllm = ModelSpec.parse({ name: 'm', endpoint: 'http://127.0.0.1:1/v1' });
    expect(buildRequest(conv(on), vllm).body.chat_template_kwargs).toEqual({
      enable_thinking: true,
    });
    expect(buildRequest(conv(off), vllm).body.chat_template_kwargs).toEqual({
      enable_thinking: false,
    });
    const claude = ModelSpec.parse({
      name: 'c',
      provider: 'anthropic',
      endpoint: 'http://127.0.0.1:1',
      thinking_budget: 2048,
    });
    expect(anthropicLimits(conv(on), claude)).toEqual({
      max_tokens: 256 + 2048,
      thinking: { type: 'enabled', budget_tokens: 2048 },
    });
    expect(anthropicLimits(conv(off), claude).thinking).toEqual({ type: 'disabled' });
  });

  it('refuses a sampling that sets thinking beside the factor', async () => {
    const dir = await tempDir('stimkit-thinking-both-');
    const fx = await reasoningBundle(dir);
    const study = parse(await readFile(fx.study, 'utf8'));
    study.thinking = ['on', 'off'];
    study.sampling.thinking = false;
    await writeFile(fx.study, stringify(study));
    const err = await stimkitRejection(bundleStudy(fx.study, { dryRun: true }));
    expect(err.problems.map((p) => [p.code, p.field])).toEqual([
      ['E_BUNDLE_THINKING', 'sampling.thinking'],
    ]);
  });
});
