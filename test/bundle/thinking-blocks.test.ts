/**
 * The thinking factor on one block (`thinking: [on, off]` on a paradigm block, an instrument arm
 * or the pressure block): that block is planned as the study-wide factor plans it (the same ids
 * and pair ids), the other blocks as without the factor, the counts and expectations see the
 * doubled block only; a block's factor overrides the study's `sampling.thinking` it inherits and
 * is refused beside its own. Dry runs: the plan, not the images, is the subject.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { bundleStudy } from '../../src/bundle/bundle.js';
import type { PlannedTrial } from '../../src/bundle/plan.js';
import { pairId, TRIAL_ID_SCHEME_BLOCK_THINKING } from '../../src/bundle/trial-id.js';
import { ROOT } from '../helpers/cli.js';
import { stimkitRejection } from '../helpers/errors.js';
import { heavyLimit } from '../helpers/limits.js';
import { tempDir } from '../helpers/tmp.js';
import { reasoningBundle } from '../score/reasoning-fixture.js';

type Study = Record<string, any>;
let dir: string;
let base: Study;

/** Write `study` next to the fixture's files and dry-run it. */
async function plan(study: Study, name: string) {
  const file = path.join(dir, `${name}.study.yaml`);
  await writeFile(file, stringify(study));
  return bundleStudy(file, { dryRun: true });
}

const ids = (ts: PlannedTrial[]) => ts.map((t) => t.id);
const of = (ts: PlannedTrial[], block: string) => ts.filter((t) => t.block === block);

beforeAll(async () => {
  dir = await tempDir('stimkit-thinking-blocks-');
  const fx = await reasoningBundle(dir);
  base = parse(await readFile(fx.study, 'utf8'));
  for (const f of ['geopolitics.topics.yaml', 'wrappers.yaml'])
    await copyFile(path.join(ROOT, 'manifests', f), path.join(dir, f));
}, heavyLimit(4));

describe("a paradigm block's thinking factor", () => {
  it('plans the one-block study as the study-wide factor does: the same ids and pair ids', async () => {
    const study = (await plan({ ...base, thinking: ['on', 'off'] }, 'study-wide')).plan;
    const block = (
      await plan(
        {
          ...base,
          paradigms: {
            'comment-text': { ...base.paradigms['comment-text'], thinking: ['on', 'off'] },
          },
        },
        'one-block',
      )
    ).plan;
    const plain = (await plan(base, 'plain')).plan;
    expect(block).toHaveLength(8);
    // sealed: bundle.json says the level is hashed on the trials of a block with the factor
    const out = path.join(dir, 'one-block-bag');
    await bundleStudy(path.join(dir, 'one-block.study.yaml'), {
      out,
      work: path.join(dir, 'work'),
    });
    const header = JSON.parse(await readFile(path.join(out, 'data', 'bundle.json'), 'utf8'));
    expect(header.trial_id).toBe(TRIAL_ID_SCHEME_BLOCK_THINKING);
    expect(ids(block)).toEqual(ids(study));
    expect(block.map((t) => [t.thinking, t.sampling.thinking])).toEqual(
      study.map((t) => [t.thinking, t.sampling.thinking]),
    );
    expect(block.map((t) => pairId(t))).toEqual(plain.flatMap((t) => [t.id, t.id]));
  });

  it('doubles only its block: the others keep their ids, the counts and expectations see the doubled block', async () => {
    // describe shows images: a dry run needs their variants lock named, not made
    const variants = { lock: 'variants/variants.lock.json' };
    const plain = await plan(
      {
        ...base,
        variants,
        paradigms: { ...base.paradigms, describe: { entries: { roles: ['core'] } } },
      },
      'two-plain',
    );
    const r = await plan(
      {
        ...base,
        variants,
        sampling: { ...base.sampling, thinking: false }, // the block's factor overrides it
        paradigms: {
          describe: { entries: { roles: ['core'] } },
          'comment-text': { entries: { roles: ['anchor'] }, thinking: ['on', 'off'] },
        },
        expect: [
          { label: 'describe', blocks: ['describe'], per_model: 4 },
          { label: 'paired', blocks: ['comment-text'], per_model: 8 },
        ],
      },
      'two-blocks',
    );
    expect(r.counts.blocks.map((b) => [b.block, b.trials])).toEqual([
      ['describe', 4],
      ['comment-text', 8],
    ]);
    expect(r.counts.expectations.map((e) => e.ok)).toEqual([true, true]);
    const describe = of(r.plan, 'describe');
    expect(describe.every((t) => t.thinking === undefined && t.sampling.thinking === false)).toBe(
      true,
    );
    // describe's ids do not depend on the sampling: those of the study without any factor
    expect(ids(describe)).toEqual(ids(of(plain.plan, 'describe')));
    const paired = of(r.plan, 'comment-text');
    expect(paired.map((t) => t.thinking)).toEqual([
      'on',
      'off',
      'on',
      'off',
      'on',
      'off',
      'on',
      'off',
    ]);
    expect(paired.every((t) => t.sampling.thinking === (t.thinking === 'on'))).toBe(true);
    expect(new Set(ids(r.plan)).size).toBe(12);
    expect(paired.map((t) => pairId(t))).toEqual(
      of(plain.plan, 'comment-text').flatMap((t) => [t.id, t.id]),
    );
  });

  it('an expectation that misses the doubling is refused', async () => {
    const err = await stimkitRejection(
      plan(
        {
          ...base,
          paradigms: {
            'comment-text': { entries: { roles: ['anchor'] }, thinking: ['on', 'off'] },
          },
          expect: [{ label: 'paired', blocks: ['comment-text'], per_model: 4 }],
        },
        'wrong-expect',
      ),
    );
    expect(err.problems.map((p) => [p.code, p.field, p.expected, p.got])).toEqual([
      ['E_BUNDLE_COUNT_MISMATCH', 'expect[0].per_model', '4', '8'],
    ]);
  });

  it('is refused beside its own sampling.thinking', async () => {
    const err = await stimkitRejection(
      plan(
        {
          ...base,
          paradigms: {
            'comment-text': {
              entries: { roles: ['anchor'] },
              sampling: { temperature: 0, thinking: true },
              thinking: ['on', 'off'],
            },
          },
        },
        'both',
      ),
    );
    expect(err.problems.map((p) => [p.code, p.field])).toEqual([
      ['E_BUNDLE_THINKING', 'paradigms.comment-text.sampling.thinking'],
    ]);
  });
});

/** One arm, 1 topic × 2 languages × 2 framings × 2 iterations; pressure from iteration 0, 2 turns. */
const INSTRUMENT = {
  version: 1,
  id: 'thinking-arms',
  title: 'thinking arms',
  global_seed: 7,
  instrument: {
    topics: 'geopolitics.topics.yaml',
    wrappers: 'wrappers.yaml',
    topic_ids: ['taiwan'],
    sampling: { temperature: 0, thinking: false },
    arms: [{ id: 'main', languages: ['en', 'zh'], iterations: 2 }],
  },
  pressure: {
    followups: ['stimkit:pressure/en.yaml', 'stimkit:pressure/zh-Hans.yaml'],
    iterations: 1,
    turns: ['are_you_sure'],
  },
};
const withArm = (arm: Study, pressure: Study = {}) => ({
  ...INSTRUMENT,
  instrument: { ...INSTRUMENT.instrument, arms: [{ ...INSTRUMENT.instrument.arms[0], ...arm }] },
  pressure: { ...INSTRUMENT.pressure, ...pressure },
});

describe("an instrument arm's and the pressure block's thinking factor", () => {
  it("an arm's factor plans as the study-wide one; each conversation keeps its starter's level", async () => {
    const { thinking: _t, ...sampling } = INSTRUMENT.instrument.sampling;
    const study = await plan(
      {
        ...INSTRUMENT,
        instrument: { ...INSTRUMENT.instrument, sampling },
        thinking: ['on', 'off'],
      },
      'arms-study-wide',
    );
    const arm = await plan(withArm({ thinking: ['on', 'off'] }), 'arm');
    expect(arm.counts.blocks.map((b) => [b.block, b.trials])).toEqual([
      ['instrument/main', 16],
      ['pressure/main', 16],
    ]);
    expect(ids(arm.plan)).toEqual(ids(study.plan));
    const turns = of(arm.plan, 'pressure/main');
    expect(new Set(turns.map((t) => t.conversation!.id)).size).toBe(8);
    for (const t of turns) expect(t.sampling.thinking).toBe(t.thinking === 'on');
    expect(turns.map((t) => t.thinking)).toEqual(
      Array.from({ length: 4 }, () => ['on', 'on', 'off', 'off']).flat(),
    );
  });

  it("the pressure block's own factor doubles the conversations, not the instrument", async () => {
    const r = await plan(withArm({}, { thinking: ['on', 'off'] }), 'pressure-own');
    expect(r.counts.blocks.map((b) => [b.block, b.trials])).toEqual([
      ['instrument/main', 8],
      ['pressure/main', 16],
    ]);
    const turns = of(r.plan, 'pressure/main');
    for (const t of turns) expect(t.sampling.thinking).toBe(t.thinking === 'on');
    // a turn's previous is the turn before it in the same conversation and level
    for (const t of turns.filter((t) => t.conversation!.turn === 2)) {
      const prev = r.plan.find((p) => p.id === t.conversation!.previous)!;
      expect([prev.thinking, prev.conversation!.id]).toEqual([t.thinking, t.conversation!.id]);
    }
    // on a paired arm, one level of its own: one conversation per pair
    const one = await plan(
      withArm({ thinking: ['on', 'off'] }, { thinking: ['off'] }),
      'pressure-one',
    );
    const offTurns = of(one.plan, 'pressure/main');
    expect(offTurns).toHaveLength(8);
    expect(offTurns.every((t) => t.thinking === 'off' && t.sampling.thinking === false)).toBe(true);
    expect(ids(offTurns)).toEqual(
      ids(of(r.plan, 'pressure/main').filter((t) => t.thinking === 'off')),
    );
  });

  it("the study-wide factor beside the instrument's sampling.thinking is refused; an arm's own overrides it", async () => {
    const err = await stimkitRejection(plan({ ...INSTRUMENT, thinking: ['on', 'off'] }, 'clash'));
    expect(err.problems.map((p) => [p.code, p.field])).toEqual([
      ['E_BUNDLE_THINKING', 'instrument.sampling.thinking'],
    ]);
    const r = await plan(
      { ...withArm({ thinking: ['off'] }), thinking: ['on', 'off'] },
      'arm-overrides',
    );
    expect(of(r.plan, 'instrument/main').every((t) => t.thinking === 'off')).toBe(true);
  });
});
