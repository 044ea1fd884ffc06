/**
 * The demo's last steps: score every simulated response (the instrument with its free-text judge,
 * and the VLM paradigms' six-dimension audit, by the two simulated judges of demo.models.yaml),
 * validate the judges on a stratified sample labelled by simulated raters, and build the report,
 * so the demo ends with every chart and table of the run-and-score half, offline. Everything is
 * marked simulated.
 */
import path from 'node:path';
import { prepareAudit } from '../score/audit-prepare.js';
import { relPosix } from '../core/fsio.js';
import { writeValidation } from '../score/validation-file.js';
import { makeLabelSample } from '../label/make-sample.js';
import { writeReport } from '../report/folder.js';
import { writeSimRaterLabels, type SimRater } from '../label/sim-raters.js';
import { prepareInstrumentJudge } from '../score/instrument-judge.js';
import { SCORERS } from '../score/registry.js';
import { scoreToFolder } from '../score/score.js';
import { scoreHuman, scoreJson } from '../score/summary.js';
import type { DemoStep } from './demo.js';

/** The simulated judges of demo.models.yaml; the first is primary. */
const DEMO_JUDGES = ['sim-judge', 'sim-judge-b'];
/** The demo's validation sample: size (the audit paper's) and seed of the stratified draw. */
const DEMO_SAMPLE = { n: 200, seed: 42 };
/** The demo's simulated raters (labels drawn from the simulator's truth, docs/simulated-respondents.md). */
const DEMO_RATERS: SimRater[] = [
  { name: 'sim-rater-1', accuracy: 0.95 },
  { name: 'sim-rater-2', accuracy: 0.92 },
  { name: 'sim-rater-3', accuracy: 0.9 },
];

/** Score the demo ledger with the sim judges, validate them against simulated raters and report it; returns the three steps. */
export async function scoreAndReport(
  out: string,
  bundleDir: string,
  ledger: string,
  modelsFile: string,
  say: (line: string) => void,
): Promise<DemoStep[]> {
  say(
    `score: the instrument and the six-dimension audit, judged by the simulated judges ${DEMO_JUDGES.map((j) => `"${j}"`).join(' and ')}`,
  );
  const source = { kind: 'ledger' as const, file: ledger };
  const judging = {
    bundle: bundleDir,
    source,
    models: modelsFile,
    judges: DEMO_JUDGES,
    judgeLedger: path.join(out, 'judges.sqlite'),
    log: say,
  };
  const audit = await prepareAudit(judging);
  const instrument = await prepareInstrumentJudge(judging);
  const scores = path.join(out, 'scores');
  const scorers = [
    ...SCORERS.map((s) => (s.name === instrument.scorer.name ? instrument.scorer : s)),
    audit.scorer,
  ];
  const scored = await scoreToFolder({
    bundle: bundleDir,
    source,
    models: modelsFile,
    out: scores,
    scorers,
    judgeLedger: judging.judgeLedger,
  });
  const validate = await validateStep(out, bundleDir, ledger, scores, say);
  say('report: one HTML page with the charts and tables');
  const report = await writeReport(scores, path.join(out, 'report'));
  const page = relPosix(process.cwd(), path.join(report.out, 'index.html'));
  return [
    {
      step: 'score',
      ok: true,
      human: scoreHuman(scored),
      summary: { ...scoreJson(scored), judges: audit.judged, instrument_judges: instrument.judged },
    },
    validate,
    {
      step: 'report',
      ok: true,
      human: `report: ${report.sections.length} section(s)${report.simulated ? ', SIMULATED data' : ''}; open ${page}`,
      summary: { out: report.out, sections: report.sections, simulated: report.simulated },
    },
  ];
}

/** Validate the judges' labels in `scores` against simulated raters on a stratified sample. */
async function validateStep(
  out: string,
  bundleDir: string,
  ledger: string,
  scores: string,
  say: (line: string) => void,
): Promise<DemoStep> {
  say(
    `validate: a stratified sample of ${DEMO_SAMPLE.n} VLM responses, labelled by ${DEMO_RATERS.length} SIMULATED raters, against the judges`,
  );
  const validation = path.join(out, 'validation');
  const sample = await makeLabelSample({
    bundle: bundleDir,
    ledger,
    out: path.join(validation, 'sample.json'),
    ...DEMO_SAMPLE,
  });
  const labels = await writeSimRaterLabels({
    sample: sample.out,
    ledger,
    raters: DEMO_RATERS,
    seed: DEMO_SAMPLE.seed,
    out: path.join(validation, 'labels.csv'),
  });
  const validated = await writeValidation(scores, labels.out);
  return {
    step: 'validate',
    ok: true,
    human: `validate: ${validated.report.items} sampled responses labelled by ${labels.raters.join(', ')} (SIMULATED raters) against ${validated.report.judges.join(', ')}; ${relPosix(process.cwd(), validated.out)}`,
    summary: {
      sample: sample.out,
      items: sample.sample.items.length,
      labels: labels.out,
      raters: labels.raters,
      simulated_raters: validated.report.simulated_raters ?? [],
      judges: validated.report.judges,
      out: validated.out,
    },
  };
}
