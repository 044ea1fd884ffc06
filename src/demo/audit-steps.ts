/**
 * The demo's last two steps: score every simulated response (the instrument, and the VLM
 * paradigms' six-dimension audit with the simulated judge of demo.models.yaml) and build the
 * report, so the demo ends with every audit chart, offline. Everything is marked simulated.
 */
import path from 'node:path';
import { prepareAudit } from '../audit/prepare.js';
import { relPosix } from '../core/fsio.js';
import { buildReport } from '../report/build.js';
import { prepareInstrumentJudge } from '../score/instrument-judge.js';
import { SCORERS } from '../score/registry.js';
import { scoreToFolder } from '../score/score.js';
import { scoreHuman, scoreJson } from '../score/summary.js';
import type { DemoStep } from './demo.js';

/** The simulated judge of demo.models.yaml. */
export const DEMO_JUDGE = 'sim-judge';

/** Score the demo ledger with the sim judge and report it; returns the two steps. */
export async function scoreAndReport(out: string, bundleDir: string, ledger: string, modelsFile: string, say: (line: string) => void): Promise<DemoStep[]> {
  say(`score: the instrument and the six-dimension audit, judged by the simulated judge "${DEMO_JUDGE}"`);
  const source = { kind: 'ledger' as const, file: ledger };
  const judging = { bundle: bundleDir, source, models: modelsFile, judges: [DEMO_JUDGE], judgeLedger: path.join(out, 'judges.sqlite'), log: say };
  const audit = await prepareAudit(judging);
  const instrument = await prepareInstrumentJudge(judging);
  const scores = path.join(out, 'scores');
  const scorers = [...SCORERS.map((s) => (s.name === instrument.scorer.name ? instrument.scorer : s)), audit.scorer];
  const scored = await scoreToFolder({ bundle: bundleDir, source, models: modelsFile, out: scores, scorers });
  say('report: one HTML page with the charts and tables');
  const report = await buildReport(scores, path.join(out, 'report'));
  const page = relPosix(process.cwd(), path.join(report.out, 'index.html'));
  return [
    { step: 'score', ok: true, human: scoreHuman(scored), summary: { ...scoreJson(scored), judges: audit.judged, instrument_judges: instrument.judged } },
    { step: 'report', ok: true, human: `report: ${report.sections.length} section(s)${report.simulated ? ', SIMULATED data' : ''}; open ${page}`, summary: { out: report.out, sections: report.sections, simulated: report.simulated } },
  ];
}
