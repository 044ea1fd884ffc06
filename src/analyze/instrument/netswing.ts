/**
 * Net bias and swing per (model, topic, language) cell pair, in the exact form of the reference
 * vector net_swing.json: s = response for affirmative items and −response for reverse items
 * (missing responses excluded); net = (mean_aff + mean_rev)/2 (acquiescence cancelled),
 * acq = (mean_aff − mean_rev)/2 (signed keying effect = mean raw agreement), swing = |acq|;
 * null when either framing has no valid response.
 */

/** A response in the vector's terms: key aff|rev, response −2..2 or null. */
export interface NetSwingRecord {
  model: string;
  topic: string;
  language: string;
  key: 'aff' | 'rev';
  response: number | null;
}

/** Net bias and swing of one (model, topic, language). */
export interface NetSwingCell {
  model: string;
  topic: string;
  language: string;
  nAff: number;
  nRev: number;
  nInvalid: number;
  meanAff: number | null;
  meanRev: number | null;
  net: number | null;
  acq: number | null;
  swing: number | null;
}

/** Cells in order of first appearance. */
export function netSwingCells(records: readonly NetSwingRecord[]): NetSwingCell[] {
  const cells = new Map<
    string,
    {
      model: string;
      topic: string;
      language: string;
      aff: number[];
      rev: number[];
      invalid: number;
    }
  >();
  for (const r of records) {
    const id = `${r.model}\u0000${r.topic}\u0000${r.language}`;
    let c = cells.get(id);
    if (!c) {
      c = { model: r.model, topic: r.topic, language: r.language, aff: [], rev: [], invalid: 0 };
      cells.set(id, c);
    }
    if (r.response === null || r.response === undefined) c.invalid++;
    else if (r.key === 'aff') c.aff.push(r.response);
    else c.rev.push(-r.response);
  }
  const mean = (x: number[]) => (x.length === 0 ? null : x.reduce((s, v) => s + v, 0) / x.length);
  return [...cells.values()].map((c) => {
    const meanAff = mean(c.aff);
    const meanRev = mean(c.rev);
    const both = meanAff !== null && meanRev !== null;
    const acq = both ? (meanAff - meanRev) / 2 : null;
    return {
      model: c.model,
      topic: c.topic,
      language: c.language,
      nAff: c.aff.length,
      nRev: c.rev.length,
      nInvalid: c.invalid,
      meanAff,
      meanRev,
      net: both ? (meanAff + meanRev) / 2 : null,
      acq,
      swing: acq === null ? null : Math.abs(acq),
    };
  });
}

/** Mean net over topics per model × language (cells with a null net are left out). */
export function meanNetByModelLanguage(
  cells: readonly NetSwingCell[],
): Record<string, { meanNet: number; nTopics: number }> {
  const out: Record<string, { sum: number; n: number }> = {};
  for (const c of cells) {
    if (c.net === null) continue;
    const k = `${c.model}|${c.language}`;
    out[k] ??= { sum: 0, n: 0 };
    out[k].sum += c.net;
    out[k].n++;
  }
  return Object.fromEntries(
    Object.entries(out).map(([k, v]) => [k, { meanNet: v.sum / v.n, nTopics: v.n }]),
  );
}
