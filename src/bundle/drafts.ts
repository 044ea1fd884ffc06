/**
 * Which texts of a plan are unreviewed drafts (translations pending adjudication, machine drafts
 * pending review). A bundle may seal them — a pilot needs to — but says so, since a cited bundle
 * should not rest on texts nobody has checked.
 */
import { isDraft } from '../stimuli/provenance.js';
import type { PlannedTrial } from './plan.js';
import type { Stimuli } from './stimuli-source.js';

/** A warning about the plan (not an error: the bag is still sealed). */
export interface PlanWarning {
  code: string;
  message: string;
}

/** One warning per kind of text and language with drafts among the texts the plan uses. */
export function draftWarnings(plan: PlannedTrial[], stimuli: Stimuli): PlanWarning[] {
  const counts = new Map<
    string,
    { kind: string; lang: string; status: string; ids: Set<string> }
  >();
  const note = (kind: string, lang: string, status: string, id: string) => {
    const key = `${kind}\t${lang}\t${status}`;
    if (!counts.has(key)) counts.set(key, { kind, lang, status, ids: new Set() });
    counts.get(key)!.ids.add(id);
  };
  const items = new Map((stimuli.instrument?.items ?? []).map((i) => [i.id, i]));
  const pools = stimuli.instrument?.pools.pools ?? {};
  const cards = stimuli.prompts?.cards.paradigms ?? {};
  for (const t of plan) {
    const item = t.item ? items.get(t.item) : undefined;
    if (item && isDraft(item.provenance))
      note('instrument item', t.lang, item.provenance.status, item.id);
    if (t.wrappers) {
      const pool = pools[t.lang];
      for (const [slot, w] of [
        ['prefix', pool?.prefixes[t.wrappers.prefix.index]],
        ['suffix', pool?.suffixes[t.wrappers.suffix.index]],
      ] as const) {
        if (w && isDraft(w.provenance)) note(`wrapper ${slot}`, t.lang, w.provenance.status, w.id);
      }
    }
    const prov = t.prompt ? cards[t.prompt]?.provenance[t.lang] : undefined;
    if (prov && isDraft(prov)) note('prompt card', t.lang, prov.status, t.prompt!);
    const turn = t.conversation;
    const file = turn?.followup ? stimuli.pressure?.byLang.get(turn.text_lang) : undefined;
    if (turn?.followup && file) {
      const f = file.data.followups;
      // other_language: the text asking for the conversation's other language, the one sent.
      const text =
        turn.followup === 'other_language'
          ? Object.values(f.other_language).find((x) => x.text === t.text)
          : f[turn.followup];
      const p = text?.provenance ?? file.data.provenance;
      if (isDraft(p)) note('pressure follow-up', turn.text_lang, p.status, turn.followup);
    }
  }
  return [...counts.values()].map((c) => ({
    code: 'W_BUNDLE_DRAFT_TEXT',
    message: `${c.ids.size} ${c.kind}(s) in ${c.lang} are ${c.status} (${[...c.ids].sort().slice(0, 3).join(', ')}${c.ids.size > 3 ? ', …' : ''}); review them before citing this bundle`,
  }));
}
