/** The human and JSON summaries of `stimkit bundle`. */
import { relPosix } from '../core/fsio.js';
import type { BundleResult } from './bundle.js';

/** The machine-readable summary printed by `--json`. */
export function bundleJson(r: BundleResult) {
  return {
    ok: true,
    command: 'bundle',
    study: r.study.id,
    dry_run: r.dryRun,
    out: r.out ? relPosix(process.cwd(), r.out) : null,
    digest: r.digest,
    trials: r.trials,
    images: r.images,
    payload: r.payload,
    reused: r.reused,
    counts: r.counts,
    warnings: r.warnings,
  };
}

/** The human summary: a table of trials by block × language, the expectations, the digest. */
export function bundleHuman(r: BundleResult): string {
  const c = r.counts;
  const langs = [...new Set(c.by_block.map((x) => x.lang))];
  const width = Math.max(5, ...c.blocks.map((b) => b.block.length));
  const lines = [
    `study "${r.study.id}": ${r.trials} trials per model${r.dryRun ? ' (dry run: nothing written)' : ''}`,
  ];
  lines.push(
    `  ${'block'.padEnd(width)}  ${langs.map((l) => l.padStart(6)).join('  ')}   per model  models  requests`,
  );
  for (const b of c.blocks) {
    const cells = langs.map((l) =>
      String(c.by_block.find((x) => x.block === b.block && x.lang === l)?.trials ?? 0).padStart(6),
    );
    const models = b.models ? `${b.models}×${b.model_count}` : '-';
    lines.push(
      `  ${b.block.padEnd(width)}  ${cells.join('  ')}   ${String(b.trials).padStart(9)}  ${models.padStart(6)}  ${String(b.planned_requests ?? '-').padStart(8)}`,
    );
  }
  for (const e of c.expectations) {
    const total = e.total ? `, total ${e.total.got} (expected ${e.total.expected})` : '';
    lines.push(
      `  ${e.ok ? 'ok' : 'MISMATCH'}: ${e.label}: ${e.per_model.got} per model (expected ${e.per_model.expected})${total}`,
    );
  }
  for (const w of r.warnings) lines.push(`  warning ${w.code}: ${w.message}`);
  if (!r.dryRun) {
    const reuse = (x: boolean | null, what: string) =>
      x === null ? '' : `${what} ${x ? 'reused' : 'rebuilt'}`;
    lines.push(
      `  ${[reuse(r.reused.corpus, 'corpus lock'), reuse(r.reused.variants, 'variants lock')].filter(Boolean).join(', ')}`.trimEnd(),
    );
    lines.push(
      `sealed ${relPosix(process.cwd(), r.out!)}: ${r.payload!.files} payload files, ${r.payload!.octets} bytes, ${r.images} images`,
    );
    lines.push(`digest ${r.digest}`);
  }
  return lines.filter((l) => l.trim() !== '').join('\n');
}
