/**
 * The demo's per-model summary of a simulated run, read back from the ledger through the reader
 * API: outcomes, and from the simulator's recorded ground truth, per language, the instrument's
 * mean raw agreement and keyed stance, or the VLM paradigms' refusal, reframing, drift and fact
 * coverage rates. (Scoring the texts themselves is `stimkit score`'s job.)
 */
import { openLedger } from '../ledger/read.js';

export interface DemoModelSummary {
  model: string;
  trials: number;
  outcomes: Record<string, number>;
  /**
   * Per language: instrument {agreement, stance, neutral_or_refused}, with a pressure block also
   * {pressure_turns: follow-up turns answered, pressure_flipped: the share that changed the
   * answer}; or VLM {refused, reframed, drifted, facts}.
   */
  by_lang: Record<string, Record<string, number>>;
}

const mean = (xs: number[]) =>
  xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000 : 0;

/** Summarise every model of the ledger's latest run. */
export function demoRunSummary(ledgerFile: string): DemoModelSummary[] {
  const ledger = openLedger(ledgerFile);
  try {
    const by = new Map<
      string,
      {
        outcomes: Record<string, number>;
        truths: Array<{ lang: string; t: Record<string, unknown> }>;
      }
    >();
    for (const r of ledger.results()) {
      const m = by.get(r.model) ?? { outcomes: {}, truths: [] };
      m.outcomes[r.outcome] = (m.outcomes[r.outcome] ?? 0) + 1;
      if (r.truth) m.truths.push({ lang: r.trial.lang, t: r.truth });
      by.set(r.model, m);
    }
    return [...by].map(([model, m]) => {
      const langs = [...new Set(m.truths.map((x) => x.lang))].sort();
      const by_lang: DemoModelSummary['by_lang'] = {};
      for (const lang of langs) {
        const all = m.truths.filter((x) => x.lang === lang).map((x) => x.t);
        // A pressure turn's truth is its own kind: its flips, apart from the instrument's means.
        const turns = all.filter((t) => t.kind === 'pressure' && typeof t.flipped === 'boolean');
        const ts = all.filter((t) => t.kind !== 'pressure');
        const pressure: Record<string, number> =
          turns.length > 0
            ? {
                pressure_turns: turns.length,
                pressure_flipped: mean(turns.map((t) => (t.flipped ? 1 : 0))),
              }
            : {};
        if (ts[0]?.kind === 'instrument') {
          by_lang[lang] = {
            agreement: mean(ts.map((t) => Number(t.score ?? 0))),
            stance: mean(ts.map((t) => Number(t.stance ?? 0))),
            neutral_or_refused: mean(ts.map((t) => (t.neutral || t.refused ? 1 : 0))),
            ...pressure,
          };
        } else {
          by_lang[lang] = {
            refused: mean(ts.map((t) => (t.refused ? 1 : 0))),
            reframed: mean(ts.map((t) => (t.reframed ? 1 : 0))),
            drifted: mean(ts.map((t) => (t.drifted ? 1 : 0))),
            facts: mean(
              ts
                .filter((t) => Number(t.facts_total) > 0)
                .map(
                  (t) =>
                    (Array.isArray(t.facts_covered) ? t.facts_covered.length : 0) /
                    Number(t.facts_total),
                ),
            ),
          };
        }
      }
      return {
        model,
        trials: Object.values(m.outcomes).reduce((a, b) => a + b, 0),
        outcomes: m.outcomes,
        by_lang,
      };
    });
  } finally {
    ledger.close();
  }
}

/** The summary as lines for people. */
export function demoRunHuman(ledgerFile: string, models: DemoModelSummary[]): string {
  const lines = [`simulated respondents (every response marked simulated), ledger ${ledgerFile}:`];
  for (const m of models) {
    const outcomes = Object.entries(m.outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const langs = Object.entries(m.by_lang)
      .map(
        ([lang, v]) =>
          `${lang}: ${Object.entries(v)
            .map(([k, x]) => `${k} ${x}`)
            .join(' ')}`,
      )
      .join(' | ');
    lines.push(`  ${m.model}: ${m.trials} trials (${outcomes}); true labels ${langs}`);
  }
  return lines.join('\n');
}
