/** The human summary of `stimkit compare`. */
import type { CompareResult } from './format.js';

const fmtP = (p: number) => (p < 0.001 ? '< 0.001' : p.toPrecision(2));

/** ` via R1 → R2` (the routes that answered in A and B), or ` via R` when the same. */
const routes = (m: { route_a: string | null; route_b: string | null }) =>
  m.route_a === null && m.route_b === null
    ? ''
    : m.route_a === m.route_b
      ? ` via ${m.route_a}`
      : ` via ${m.route_a ?? '(none)'} → ${m.route_b ?? '(none)'}`;

/** A few lines: what was paired, what changed by column, and the cells Holm keeps below 0.05. */
export function compareHuman(r: CompareResult): string {
  const lines = [
    `bundle ${r.bundle.digest}${r.bundle.study ? ` (${r.bundle.study})` : ''}`,
    `${r.counts.paired} trial × model pairs; ${r.counts.changed} changed; ${r.counts.only_a} only in A, ${r.counts.only_b} only in B`,
  ];
  const by = Object.entries(r.counts.by_column).filter(([, n]) => n > 0);
  if (by.length > 0) lines.push(`changed by column: ${by.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  const sig = r.mcnemar.filter((m) => m.p_holm !== null && m.p_holm < 0.05);
  lines.push(
    sig.length === 0
      ? 'no cell changed significantly (exact McNemar, Holm across each column’s cells, 0.05)'
      : `changed significantly (exact McNemar, Holm, 0.05): ${sig
          .map(
            (m) =>
              `${m.model}${routes(m)} ${m.paradigm} ${m.language} ${m.column} (b ${m.b}, c ${m.c}, p ${fmtP(m.p_holm!)})`,
          )
          .join('; ')}`,
  );
  for (const [side, list] of [
    ['A', r.only_a],
    ['B', r.only_b],
  ] as const)
    if (list.length > 0)
      lines.push(
        `only in ${side}: ${list
          .slice(0, 5)
          .map((t) => `${t.trial} × ${t.model}`)
          .join(', ')}${list.length > 5 ? `, … (${list.length} in all)` : ''}`,
      );
  return `${lines.join('\n')}\n`;
}
