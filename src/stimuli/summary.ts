/** The human and JSON summaries of `stimkit pairs`. */
import { relPosix } from '../core/fsio.js';
import type { PairsRun } from './pairs.js';

/** The machine-readable summary printed by `--json`: the artifact, plus where it was written. */
export function pairsJson(run: PairsRun) {
  const { items, ...header } = run.artifact;
  return {
    ok: true,
    command: 'pairs',
    ...header,
    out: run.out ? relPosix(process.cwd(), run.out) : null,
    out_sha256: run.sha256,
    written: run.written,
    items,
  };
}

/** The human summary: one line per item, then counts, drafts and what was written. */
export function pairsHuman(run: PairsRun): string {
  const a = run.artifact;
  const missing = Object.entries(a.counts.missing_items ?? {});
  const lines = [
    `${a.domain}: ${a.counts.topics} topics × ${a.counts.languages} language(s) (${a.parameters.languages.join(', ')}) × 2 framings${missing.length > 0 ? ', less the missing items below,' : ''} = ${a.counts.items} items`,
  ];
  const width = Math.max(...a.items.map((i) => i.id.length));
  for (const i of a.items) {
    const sign = i.polarity_key === 1 ? '+1' : '-1';
    lines.push(`  ${i.id.padEnd(width)}  ${sign}  ${i.text}`);
  }
  lines.push(
    `polarity key: +1 = agreeing supports ${a.poles.plus}, -1 = agreeing supports ${a.poles.minus}`,
  );
  for (const [lang, ids] of missing)
    lines.push(
      `note: ${ids.length} topic(s) have no ${lang} item (${ids.join(', ')}): the topics file does not cover them in ${lang}`,
    );
  if (a.counts.drafts > 0)
    lines.push(
      `note: ${a.counts.drafts} item(s) are translation drafts pending review (see provenance.status)`,
    );
  if (run.out)
    lines.push(
      `${run.written ? 'wrote' : 'unchanged'} ${relPosix(process.cwd(), run.out)} (sha256 ${run.sha256})`,
    );
  return lines.join('\n');
}
