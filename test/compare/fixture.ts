/**
 * Two scores folders of one instrument bundle (test/score/fixture.ts) whose differences are
 * known: run A answers every trial with its language's first option ("Strongly agree"); run B is
 * a copy of A's responses with edits the test chooses (another label, a provider block, a
 * refusal, a missing trial, an extra model). Scored by the real score stage.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { scoreToFolder } from '../../src/score/score.js';
import { bundleTrials, instrumentBundle } from '../score/fixture.js';

/** One line of a responses file. */
export interface ResponseLine {
  trial_id: string;
  model: string;
  response: string | null;
  outcome?: string;
}

/** The option labels of each language, from the sealed bundle's wrappers.json. */
async function optionLabels(bundle: string): Promise<Record<string, string[]>> {
  const w = JSON.parse(await readFile(path.join(bundle, 'data', 'wrappers.json'), 'utf8')) as {
    pools: Record<string, { options: Array<{ label: string }> }>;
  };
  return Object.fromEntries(
    Object.entries(w.pools).map(([lang, p]) => [lang, p.options.map((o) => o.label)]),
  );
}

/** Bundle the instrument fixture in `dir` and write run A's responses (two models). */
export async function compareFixture(dir: string) {
  const fx = await instrumentBundle(dir, { iterations: 2, ptIterations: 1 });
  const trials = await bundleTrials(fx.bundle);
  const labels = await optionLabels(fx.bundle);
  const a: ResponseLine[] = [];
  for (const model of ['m1', 'm2'])
    for (const t of trials)
      a.push({
        trial_id: t.id,
        model,
        response: `Answer: ${labels[t.lang]![0]!}`,
        outcome: 'answer',
      });
  await writeFile(
    path.join(dir, 'models.yaml'),
    stringify({
      format: 'stimkit.models',
      version: 1,
      models: ['m1', 'm2', 'm3'].map((name) => ({ name, provider: 'sim', sim: {}, origin: 'FR' })),
    }),
  );
  return { ...fx, trials, labels, a };
}

/** Score `lines` into `dir/<name>`. */
export async function scoreLines(
  dir: string,
  bundle: string,
  name: string,
  lines: readonly ResponseLine[],
): Promise<string> {
  const file = path.join(dir, `${name}.responses.jsonl`);
  await writeFile(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const out = path.join(dir, name);
  await scoreToFolder({
    bundle,
    source: { kind: 'responses', file },
    models: path.join(dir, 'models.yaml'),
    out,
  });
  return out;
}
