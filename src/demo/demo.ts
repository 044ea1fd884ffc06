/**
 * `stimkit demo`: the pipeline on the shipped demo corpus, offline. It grows with each stage;
 * today: ingest.
 */
import path from 'node:path';
import { PACKAGE_ROOT } from '../core/tool.js';
import { ingest } from '../ingest/ingest.js';
import { ingestHuman, ingestJson } from '../ingest/summary.js';

/** The shipped demo files, inside the installed package. */
export const DEMO = {
  entries: path.join(PACKAGE_ROOT, 'manifests', 'demo.entries.yaml'),
};

export interface DemoStep {
  step: string;
  ok: boolean;
  human: string;
  summary: unknown;
}

/** Run every demo stage into `out`; stops at the first stage that fails. */
export async function runDemo(out: string): Promise<{ ok: boolean; out: string; steps: DemoStep[] }> {
  const steps: DemoStep[] = [];
  const ingested = await ingest(DEMO.entries, { out: path.join(out, 'ingest') });
  steps.push({ step: 'ingest', ok: ingested.errors === 0, human: ingestHuman(ingested), summary: ingestJson(ingested) });
  return { ok: steps.every((s) => s.ok), out, steps };
}
