/**
 * The instrument's free-text judge (`stimkit score --judge`): how many answers the parser could
 * not read went to the judges, what the primary judge made of them, and how the judges agree
 * (exact agreement, quadratic-weighted Cohen's kappa, signed drift, as the instrument paper's
 * section 4.5 reports them). Read from score.json (`params.scorers.instrument.judge`) and
 * instrument.csv (`label_source`).
 */
import type { JudgePairAgreement } from '../../score/instrument-judge-agreement.js';
import type { ReportSection } from '../types.js';
import { hasInstrument } from './instrument-data.js';
import { fullNumber } from '../format.js';

interface JudgeParams {
  primary: string;
  free_text: number;
  routed: string[];
  judges: Array<{ name: string; simulated: boolean; labels: Record<string, number> }>;
  agreement: JudgePairAgreement[];
}

const judgeOf = (params: Record<string, Record<string, unknown>>): JudgeParams | null =>
  (params.instrument?.judge as JudgeParams | null | undefined) ?? null;
const LABELS = [
  'Strongly agree',
  'Agree',
  'Neutral',
  'Disagree',
  'Strongly disagree',
  'unparseable',
  'failed',
];

export const instrumentJudgeSection: ReportSection = {
  id: 'instrument-judge',
  title: 'Free-text answers and the judge',
  applies: async (ctx) => (await hasInstrument(ctx)) && judgeOf(ctx.header.params.scorers) !== null,
  build: async (ctx) => {
    const j = judgeOf(ctx.header.params.scorers)!;
    const table = (await ctx.table('instrument.csv'))!;
    const decided = table.rows.filter((r) => r.label_source === 'judge').length;
    const sim = j.judges.some((x) => x.simulated);
    return {
      paragraphs: [
        `${j.free_text} of ${table.rows.length} instrument answers were not one readable option (parser reasons ${j.routed.join(', ')}, with text) and went to the judge${j.judges.length > 1 ? 's' : ''} ${j.judges.map((x) => x.name).join(', ')}${sim ? ' (simulated)' : ''}, with the instrument paper's judge prompt (Supplementary Note 3). The primary judge, ${j.primary}, decided ${decided} score(s) (label_source = judge): its label is keyed exactly as a parsed option; Neutral scores 0 (judged_neutral), a reply that is none of the five labels scores 0 (judge_unparseable). Answers without text (provider refusals, errors) were not judged and score 0.`,
      ],
      charts: [],
      tables: [
        {
          id: 'instrument-judge-labels',
          title: 'Labels given by each judge to the free-text answers',
          columns: ['judge', 'judge_simulated', ...LABELS],
          rows: j.judges.map((x) => [
            x.name,
            x.simulated ? 1 : 0,
            ...LABELS.map((l) => x.labels[l] ?? 0),
          ]),
          n: `n = ${j.free_text} free-text answers per judge`,
          interval: 'Counts; no intervals',
        },
        ...(j.agreement.length > 0
          ? [
              {
                id: 'instrument-judge-agreement',
                title: 'Agreement of each judge with the primary judge',
                columns: [
                  'judge_a',
                  'judge_b',
                  'n',
                  'exact',
                  'kappa_quadratic',
                  'drift_stance',
                  'drift_score',
                ],
                rows: j.agreement.map((a) => [
                  a.a,
                  a.b,
                  a.n,
                  fullNumber(a.exact),
                  fullNumber(a.kappa_quadratic),
                  fullNumber(a.drift_stance),
                  fullNumber(a.drift_score),
                ]),
                n: 'n = answers both judges gave one of the five labels',
                interval:
                  'Point estimates: exact agreement, quadratic-weighted Cohen kappa over the five ordered labels, signed drift mean(B − A) after keying (Drift (keyed)) and before (Drift (unkeyed)); no intervals',
              },
            ]
          : []),
      ],
    };
  },
};
