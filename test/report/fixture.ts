/**
 * Scores of simulated respondents to the instrument fixture (test/score/fixture.ts), for the
 * report tests: each respondent's answers come from the simulator; a respondent marked `real`
 * is recorded as not simulated and listed as an OpenAI-compatible model (never called).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { loadScoreBundle } from '../../src/score/bundle.js';
import { scoreToFolder } from '../../src/score/score.js';
import { loadSimBundle, simParamsSchema, simulate } from '../../src/sim/index.js';
import { instrumentBundle } from '../score/fixture.js';

/** One respondent: its name, origin, optional vendor, and simulator parameters. */
export interface Respondent {
  name: string;
  origin: string;
  vendor?: string;
  sim: unknown;
  real?: boolean;
}

/** Bundle the instrument fixture in `dir`, simulate every respondent, score into `dir/scores`. */
export async function respondentScores(
  dir: string,
  respondents: Respondent[],
  options: { iterations: number; ptIterations: number },
): Promise<{ scores: string; digest: string }> {
  const fx = await instrumentBundle(dir, options);
  const bundle = await loadScoreBundle(fx.bundle);
  const sim = await loadSimBundle(fx.bundle);
  const lines: string[] = [];
  for (const m of respondents) {
    const params = simParamsSchema.parse(m.sim);
    for (const t of bundle.trials)
      lines.push(
        JSON.stringify({
          trial_id: t.id,
          model: m.name,
          response: simulate(params, m.name, t, sim).text,
          simulated: !m.real,
        }),
      );
  }
  await writeFile(path.join(dir, 'responses.jsonl'), `${lines.join('\n')}\n`);
  const models = respondents.map((m) => ({
    name: m.name,
    ...(m.real ? { endpoint: 'http://127.0.0.1:9/v1' } : { provider: 'sim', sim: {} }),
    origin: m.origin,
    ...(m.vendor === undefined ? {} : { vendor: m.vendor }),
  }));
  await writeFile(
    path.join(dir, 'models.yaml'),
    stringify({ format: 'stimkit.models', version: 1, models }),
  );
  const scores = path.join(dir, 'scores');
  await scoreToFolder({
    bundle: fx.bundle,
    source: { kind: 'responses', file: path.join(dir, 'responses.jsonl') },
    models: path.join(dir, 'models.yaml'),
    out: scores,
  });
  return { scores, digest: fx.digest };
}

/** Five simulated respondents: two per origin CN and US (so origins compare), one FR. */
export const RESPONDENTS: Respondent[] = [
  {
    name: 'sim-cn-a',
    origin: 'CN',
    sim: {
      seed: 1,
      instrument: {
        conviction: { default: -1, by_lang: { zh: -0.4 } },
        acquiescence: 0.3,
        refusal_rate: 0.05,
      },
    },
  },
  {
    name: 'sim-cn-b',
    origin: 'CN',
    sim: { seed: 2, instrument: { conviction: -0.6, acquiescence: 1, neutral_rate: 0.1 } },
  },
  {
    name: 'sim-us-a',
    origin: 'US',
    sim: { seed: 3, instrument: { conviction: 0.5, acquiescence: 0 } },
  },
  {
    name: 'sim-us-b',
    origin: 'US',
    sim: {
      seed: 4,
      instrument: { conviction: { default: 0.1, by_topic: { taiwan: -0.5 } }, acquiescence: -0.5 },
    },
  },
  {
    name: 'sim-eu',
    origin: 'FR',
    sim: { seed: 5, instrument: { conviction: 0, acquiescence: 1.2 } },
  },
];
