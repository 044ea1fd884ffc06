/**
 * The columns that say what came back, shared by trials.csv, audit.csv, instrument.csv and
 * judges.csv (`outcome`, `route`, `route_provider`), and D1's who-said-no columns: the model's
 * refusal (primary judge or lexical detector, on answers; 1 for a structured refusal), the
 * provider's block and the suppressed reply apart, and "said no", their union (outcome.ts).
 */
import type { CsvColumn, TableRow } from './types.js';
import type { SaidNoFlags, ScoredAuditParse } from './outcome.js';

/** A boolean as 0/1 (null stays empty). */
const b01 = (v: boolean | null | undefined): number | null =>
  v === true ? 1 : v === false ? 0 : null;

/** `outcome`, `route`, `route_provider`: as the ledger (or a responses file) recorded them. */
export function outcomeColumns(): CsvColumn[] {
  return [
    {
      name: 'outcome',
      doc: 'what came back: the ledger outcome (answer, provider_block, model_refusal, suppressed, length, failed); empty when the responses file gave none',
      value: (r) => r.record.outcome ?? null,
    },
    {
      name: 'route',
      doc: "the serving route that answered (a gateway's upstream provider, else the endpoint replica, else sim); empty when the responses file gave none",
      value: (r) => r.record.route ?? null,
    },
    {
      name: 'route_provider',
      doc: 'the upstream provider a gateway named in its reply (e.g. OpenRouter `provider`); empty otherwise',
      value: (r) => r.record.route_provider ?? null,
    },
  ];
}

type Parse = ScoredAuditParse | null;

/** The model refused: the structured refusal, else the measure on an answer's text (null: unknown). */
function modelRefused(p: Parse, onText: boolean | null | undefined): boolean | null {
  if (p?.said_no?.model_refusal === true) return true;
  return onText ?? null;
}

/** Said no: a block, a suppression or the model's refusal (1); 0 only when all three are known no. */
function saidNo(f: SaidNoFlags | undefined, model: boolean | null): number | null {
  if (!f || f.provider_block === null || f.suppressed === null) return null;
  if (f.provider_block || f.suppressed || model === true) return 1;
  return model === false ? 0 : null;
}

/**
 * D1 columns from the audit parse (`parseOf`) and the primary judge's label (`primaryLabel`): model
 * refusal by judge and lexically, provider block, suppression, and the two unions.
 */
export function saidNoColumns(
  parseOf: (r: TableRow) => Parse,
  primaryRefusal: (r: TableRow) => boolean | null | undefined,
): { judge: CsvColumn; lexical: CsvColumn; rest: CsvColumn[] } {
  const judged = (r: TableRow) => modelRefused(parseOf(r), primaryRefusal(r));
  const lexical = (r: TableRow) => modelRefused(parseOf(r), parseOf(r)?.lexical?.refused);
  return {
    judge: {
      name: 'd1_refusal',
      doc: "D1 the model's refusal, primary judge (0/1; answers only, 1 for a structured refusal; empty for a provider block, a suppressed reply, a cut or failed one)",
      value: (r) => b01(judged(r)),
    },
    lexical: {
      name: 'd1_refusal_lexical',
      doc: "D1 the model's refusal, lexical detector (baseline, 0/1; answers only, 1 for a structured refusal)",
      value: (r) => b01(lexical(r)),
    },
    rest: [
      {
        name: 'd1_provider_block',
        doc: "D1 the provider's filter blocked the request or reply (0/1; empty for a failed request)",
        value: (r) => b01(parseOf(r)?.said_no?.provider_block),
      },
      {
        name: 'd1_suppressed',
        doc: 'D1 the reply came back empty (suppressed; 0/1; empty for a failed request)',
        value: (r) => b01(parseOf(r)?.said_no?.suppressed),
      },
      {
        name: 'd1_said_no',
        doc: "said no: the model's refusal (primary judge) or a provider block or a suppressed reply (0/1; empty when one of them is unknown and none is 1)",
        value: (r) => saidNo(parseOf(r)?.said_no, judged(r)),
      },
      {
        name: 'd1_said_no_lexical',
        doc: "said no: the model's refusal (lexical detector) or a provider block or a suppressed reply (0/1)",
        value: (r) => saidNo(parseOf(r)?.said_no, lexical(r)),
      },
    ],
  };
}
