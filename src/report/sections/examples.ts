/**
 * Example responses for the key results: per model, the first answer (in audit.csv's order) a
 * judge labelled state-aligned (D4), else one labelled a refusal (D1), else its first answer; in
 * a language other than English when the model has one. The text comes from the run ledger
 * score.json records (read-only), cut at `EXCERPT` characters; a responses-file source or a
 * moved ledger gives the trial ids only, and the page says why. Every example names its trial,
 * which `stimkit view <bundle> --scores <dir>` opens at `/trial/<id>`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { textDirection } from '../../languages/lang-tag.js';
import { openLedger } from '../../ledger/read.js';
import type { ColumnDefs } from '../dictionary.js';
import { languageNames } from '../languages.js';
import type { ReportContext, ReportExample, ReportTable } from '../types.js';
import { auditRows, type AuditRow } from './audit-data.js';

/** At most this many characters (code points) of a response are shown. */
const EXCERPT = 600;
/** At most this many examples. */
const MAX_EXAMPLES = 8;

const COLUMNS: ColumnDefs = {
  trial: ['Trial', 'text', 'The trial id (stimkit view opens it at /trial/<id>)'],
  why: ['Why shown', 'text', 'What the judge labelled in it'],
  chars: [
    'Characters',
    'characters',
    'Length of the whole response',
    'no text: see the note above',
  ],
  view_path: ['Page in stimkit view', 'text', 'The trial’s page in stimkit view'],
};

/** The row shown for one model, and why. */
function pick(rows: AuditRow[]): { row: AuditRow; why: string } | null {
  const answers = rows.filter((r) => (r.outcome ?? 'answer') === 'answer' || r.outcome === '');
  const order = [
    ...answers.filter((r) => r.lang !== 'en'),
    ...answers.filter((r) => r.lang === 'en'),
  ];
  const d4 = order.find((r) => r.d4_state_aligned === '1');
  if (d4)
    return { row: d4, why: `D4 state-aligned${d4.d4_strategy ? ` (${d4.d4_strategy})` : ''}` };
  const d1 = order.find((r) => r.d1_refusal === '1');
  if (d1) return { row: d1, why: 'D1 refusal' };
  return order[0] ? { row: order[0], why: 'an answer (nothing labelled)' } : null;
}

/** The texts of these rows from the ledger score.json records, or why there are none. */
function textsOf(
  ctx: ReportContext,
  rows: AuditRow[],
): { texts: Map<AuditRow, string | null>; note: string | null } {
  const texts = new Map<AuditRow, string | null>();
  const input = ctx.header.inputs.find((i) => i.role === 'ledger');
  const file = input ? path.resolve(ctx.scoresDir, input.file) : null;
  if (file === null || !existsSync(file))
    return {
      texts,
      note:
        file === null
          ? 'The scores come from a responses file, so the texts are not shown here; stimkit view shows them.'
          : 'The ledger score.json records has moved, so the texts are not shown here; stimkit view --ledger FILE shows them.',
    };
  const reader = openLedger(file);
  try {
    const run = reader.run(ctx.header.params.run ?? undefined).label;
    for (const r of rows) texts.set(r, reader.resultText(run, r.model!, r.trial!));
  } finally {
    reader.close();
  }
  return { texts, note: null };
}

/** The examples, their table (`tables/key-examples.csv`) and a sentence on how to open them. */
export async function exampleResponses(
  ctx: ReportContext,
): Promise<{ examples: ReportExample[]; tables: ReportTable[]; paragraphs: string[] }> {
  const rows = await auditRows(ctx);
  const models = [...new Set(rows.map((r) => r.model!))].sort();
  const picked = models
    .flatMap((m) => {
      const p = pick(rows.filter((r) => r.model === m));
      return p ? [p] : [];
    })
    .slice(0, MAX_EXAMPLES);
  if (picked.length === 0) return { examples: [], tables: [], paragraphs: [] };
  const { texts, note } = textsOf(
    ctx,
    picked.map((p) => p.row),
  );
  const { packs } = await languageNames(ctx);
  const examples = picked.map(({ row, why }): ReportExample => {
    const text = texts.get(row) ?? null;
    const cps = text === null ? [] : [...text];
    return {
      trial: row.trial!,
      model: row.model!,
      lang: row.lang!,
      dir: textDirection(row.lang!, packs),
      label: `${row.model} · ${row.lang} · ${row.entry ?? ''} ${row.variant ?? ''} · ${why}`,
      text: text === null ? null : cps.slice(0, EXCERPT).join(''),
      cut: cps.length > EXCERPT,
      simulated: row.simulated === '1',
    };
  });
  return {
    examples,
    paragraphs: [
      `Example responses, one per model (${examples.length}): the first a judge labelled state-aligned, else a refusal, else the first answer; in a language other than English where there is one.${note ? ` ${note}` : ''} To read one whole with its image and labels: npx stimkit view <bundle> --scores <scores folder>, then open /trial/<trial id>.`,
    ],
    tables: [
      {
        id: 'key-examples',
        title: 'The example responses',
        columns: ['model', 'lang', 'trial', 'why', 'chars', 'view_path'],
        rows: picked.map(({ row, why }) => {
          const t = texts.get(row);
          return [
            row.model!,
            row.lang!,
            row.trial!,
            why,
            t == null ? null : [...t].length,
            `/trial/${row.trial}`,
          ];
        }),
        n: `n = ${examples.length} responses, one per model`,
        interval: 'none: examples, not estimates',
        columnInfo: COLUMNS,
        sources: ['audit.csv'],
      },
    ],
  };
}
