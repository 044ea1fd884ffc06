/** Net bias / swing decomposition against vectors/net_swing.json. */
import { describe, expect, it } from 'vitest';
import { meanNetByModelLanguage, netSwingCells } from '../../src/analyze/instrument/netswing.js';
import { close, loadVectors } from './helpers.js';

describe('net bias and swing (net_swing.json)', () => {
  for (const c of loadVectors('net_swing').cases) {
    it(c.name, () => {
      const cells = netSwingCells(c.input.records);
      const expected = c.expected.cells as any[];
      expect(cells.length).toBe(expected.length);
      for (const e of expected) {
        const got = cells.find(
          (x) => x.model === e.model && x.topic === e.topic && x.language === e.language,
        )!;
        const where = `${e.model}|${e.topic}|${e.language}`;
        expect([got.nAff, got.nRev, got.nInvalid], where).toEqual([e.n_aff, e.n_rev, e.n_invalid]);
        close(got.meanAff, e.mean_aff, `${where} mean_aff`);
        close(got.meanRev, e.mean_rev, `${where} mean_rev`);
        close(got.net, e.net, `${where} net`);
        close(got.acq, e.acq, `${where} acq`);
        close(got.swing, e.swing, `${where} swing`);
      }
      const byML = meanNetByModelLanguage(cells);
      for (const [k, e] of Object.entries(
        c.expected.mean_net_by_model_language as Record<string, any>,
      )) {
        close(byML[k]?.meanNet, e.mean_net, `${k} mean_net`);
        expect(byML[k]?.nTopics).toBe(e.n_topics);
      }
    });
  }
});
