/**
 * The net bias / swing decomposition as test/sim/vectors/net_swing.json defines it, written
 * independently of the simulator: records {model, topic, language, key aff|rev, response or null};
 * s = response (aff) or −response (rev), null excluded; per (model, topic, language)
 * net = (mean_aff + mean_rev)/2, acq = (mean_aff − mean_rev)/2, swing = |acq|. Per model (the
 * instrument paper's Table S4): net = mean of the cell nets, swing = |mean of the cell acq|.
 */
export interface NsRecord {
  model: string;
  topic: string;
  language: string;
  key: 'aff' | 'rev';
  response: number | null;
}

export interface NsCell {
  model: string;
  topic: string;
  language: string;
  n_aff: number;
  n_rev: number;
  n_invalid: number;
  mean_aff: number | null;
  mean_rev: number | null;
  net: number | null;
  acq: number | null;
  swing: number | null;
}

export function netSwingCells(records: NsRecord[]): NsCell[] {
  const groups = new Map<string, NsRecord[]>();
  for (const r of records) {
    const k = JSON.stringify([r.model, r.topic, r.language]);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(r);
  }
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return [...groups.entries()].map(([k, rs]) => {
    const [model, topic, language] = JSON.parse(k) as [string, string, string];
    const aff = rs.filter((r) => r.key === 'aff' && r.response !== null).map((r) => r.response!);
    const rev = rs.filter((r) => r.key === 'rev' && r.response !== null).map((r) => -r.response!);
    const ma = mean(aff);
    const mr = mean(rev);
    const ok = ma !== null && mr !== null;
    const acq = ok ? (ma - mr) / 2 : null;
    return {
      model,
      topic,
      language,
      n_aff: aff.length,
      n_rev: rev.length,
      n_invalid: rs.filter((r) => r.response === null).length,
      mean_aff: ma,
      mean_rev: mr,
      net: ok ? (ma + mr) / 2 : null,
      acq,
      swing: acq === null ? null : Math.abs(acq),
    };
  });
}

/** Per-model net bias and swing from the cells (cells with no value are skipped). */
export function modelNetSwing(cells: NsCell[]): {
  net: number;
  swing: number;
  mean_cell_swing: number;
} {
  const ok = cells.filter((c) => c.net !== null);
  const mean = (f: (c: NsCell) => number) => ok.reduce((s, c) => s + f(c), 0) / ok.length;
  return {
    net: mean((c) => c.net!),
    swing: Math.abs(mean((c) => c.acq!)),
    mean_cell_swing: mean((c) => c.swing!),
  };
}
