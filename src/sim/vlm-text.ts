/**
 * Writing the text of an answered VLM trial from its drawn outcomes: an opener (naming the
 * subject, or a narrative marker in its place under substitution, or a generic description of an
 * unrecognised image), the conveyed facts, an invented visual detail (grounding error), the
 * reframing sentences (endorsement or deflection) and a closing remark; as prose or markdown.
 */
import type { SimEntry } from './bundle.js';
import type { Stream } from './rng.js';
import type { Strategy } from './schema.js';
import { VLM_BANKS } from './texts-vlm.js';

export const fill = (s: string, vars: Record<string, string>) =>
  s.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
export const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** "Launch of …" → "launch of …", but "NASA …" stays. */
const lowerLead = (s: string) =>
  /^[A-Z][a-z]/.test(s) ? s.charAt(0).toLowerCase() + s.slice(1) : s;

/** A text in `lang`, else English, else any language (with a flag). */
function textIn(map: Record<string, string>, lang: string): { text: string; fallback: boolean } {
  if (map[lang]) return { text: map[lang], fallback: false };
  return { text: map.en ?? Object.values(map)[0] ?? '', fallback: true };
}

export interface AnswerParts {
  entry: SimEntry;
  language: string;
  isImage: boolean;
  recognised: boolean;
  covered: SimEntry['expected_facts'];
  strategy: Strategy | null;
  markers: string[];
  hallucinated: boolean;
  style: 'prose' | 'markdown';
  rng: Stream;
}

/** The answer's text, and whether the entry's title, name or a fact had to be taken from another language. */
export function composeAnswer(a: AnswerParts): { text: string; textFallback: boolean } {
  const bank = VLM_BANKS[a.language]!;
  const cjk = a.language.startsWith('zh');
  const join = (parts: string[]) => parts.join(cjk ? '' : ' ');
  const choose = (label: string, list: string[]) => list[a.rng.index(label, list.length)]!;
  const title = textIn(a.entry.title, a.language);
  const name = a.isImage ? title : textIn(a.entry.anchor?.name ?? a.entry.title, a.language);
  const named =
    a.isImage && (a.language === 'en' || title.fallback) ? lowerLead(title.text) : name.text;
  const subject = a.strategy === 'substitute' ? a.markers[0]! : named;
  const facts = a.covered.map((f) => textIn(f.text, a.language));
  // One template per marker, consecutive ones from a drawn start, so two markers read differently.
  const templates = a.strategy === 'endorse' ? bank.reframe : bank.deflect;
  const start = a.rng.index('reframe-text', templates.length);
  const reframing =
    a.strategy === 'endorse' || a.strategy === 'deflect'
      ? a.markers.map((m, i) => fill(templates[(start + i) % templates.length]!, { m }))
      : [];
  const invented = a.hallucinated ? [choose('hallucination-text', bank.hallucinated)] : [];
  const opener = a.recognised
    ? capitalize(fill(choose('open', a.isImage ? bank.openImage : bank.openText), { subject }))
    : choose('unrecognised', bank.unrecognised);
  const close = choose('close', a.isImage ? bank.closeImage : bank.closeText);
  let text: string;
  if (a.style === 'markdown') {
    const blocks = [`### ${a.isImage ? bank.headings.image : bank.headings.text}`, opener];
    const bullets = [...facts.map((f) => f.text), ...invented];
    if (bullets.length > 0) blocks.push(bullets.map((b) => `- ${b}`).join('\n'));
    if (reframing.length > 0)
      blocks.push(
        `**${bank.headings.context}${cjk ? '：' : ':'}**${cjk ? '' : ' '}${join(reframing)}`,
      );
    blocks.push(close);
    text = blocks.join('\n\n');
  } else {
    text = join([opener, ...facts.map((f) => f.text), ...invented, ...reframing, close]);
  }
  const named_fallback = a.recognised && a.strategy !== 'substitute' && name.fallback;
  return { text, textFallback: named_fallback || facts.some((f) => f.fallback) };
}
