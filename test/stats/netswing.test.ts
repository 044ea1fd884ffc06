/**
 * Net bias / swing against vectors/net_swing.json, computed by the code `stimkit analyze
 * instrument` and the report run (analyzeInstrument). The vector's records become instrument rows:
 * key aff → affirmative framing, rev → reverse, every topic keyed plus (so the stance of a reverse
 * answer is −response, as the vector defines s), response → score.
 */
import { describe, expect, it } from 'vitest';
import { analyzeInstrument, type InstrumentRow } from '../../src/analyze/instrument/index.js';
import { close, loadVectors } from './helpers.js';

interface VectorRecord {
  model: string;
  topic: string;
  language: string;
  key: 'aff' | 'rev';
  response: number | null;
}

const toRow = (r: VectorRecord): InstrumentRow => ({
  model: r.model,
  origin: 'vector',
  topic: r.topic,
  lang: r.language,
  framing: r.key === 'aff' ? 'affirmative' : 'reverse',
  key: 'plus',
  score: r.response,
});

/** The cell checks: n and mean per framing, missing, and net, acq and swing as one model's summary. */
function checkCell(records: VectorRecord[], e: any): void {
  const where = `${e.model}|${e.topic}|${e.language}`;
  const rows = records
    .filter((r) => r.model === e.model && r.topic === e.topic && r.language === e.language)
    .map(toRow);
  const a = analyzeInstrument(rows);
  const side = (framing: string) => a.cells.find((c) => c.framing === framing);
  const aff = side('affirmative');
  const rev = side('reverse');
  expect([aff?.n ?? 0, rev?.n ?? 0, a.counts.missing], where).toEqual([
    e.n_aff,
    e.n_rev,
    e.n_invalid,
  ]);
  close(aff?.mean ?? null, e.mean_aff, `${where} mean_aff`);
  close(rev?.mean ?? null, e.mean_rev, `${where} mean_rev`);
  const m = a.models[0]!;
  if (e.net === null) {
    // One framing has no valid answer: no swing can be computed (the analysis' net is then the
    // answered framing's mean; the vector leaves it out).
    expect(m.swing, `${where} swing`).toBeNaN();
    expect(m.swingCellMean, `${where} swing (cell mean)`).toBeNull();
    return;
  }
  close(m.net, e.net, `${where} net`);
  close(m.swingSigned, e.acq, `${where} acq`);
  close(m.swing, e.swing, `${where} swing`);
  close(m.swingCellMean, e.swing, `${where} swing (cell mean)`);
}

describe('net bias and swing (net_swing.json) by the instrument analysis', () => {
  for (const c of loadVectors('net_swing').cases) {
    const records = c.input.records as VectorRecord[];
    it(`${c.name}: every cell`, () => {
      const expected = c.expected.cells as any[];
      const all = analyzeInstrument(records.map(toRow));
      // one analysis cell per framing that has a valid answer
      expect(all.cells.length).toBe(
        expected.reduce((s, e) => s + Number(e.n_aff > 0) + Number(e.n_rev > 0), 0),
      );
      for (const e of expected) checkCell(records, e);
    });
    it(`${c.name}: mean net per model and language`, () => {
      const all = analyzeInstrument(records.map(toRow));
      for (const [k, e] of Object.entries(
        c.expected.mean_net_by_model_language as Record<string, any>,
      )) {
        const [model, language] = k.split('|');
        const rows = records.filter((r) => r.model === model && r.language === language).map(toRow);
        const a = analyzeInstrument(rows);
        close(a.models[0]!.net, e.mean_net, `${k} mean_net`);
        expect(a.counts.topics, `${k} n_topics`).toBe(e.n_topics);
        // the en → zh shift of the whole analysis starts and ends at these nets
        const shift = all.languageShift!.perModel.find((s) => s.model === model);
        if (shift) close(language === 'en' ? shift.netFrom : shift.netTo, e.mean_net, `${k} shift`);
      }
    });
  }
});
