/**
 * The Appendix O cleaner as it was written before its rules became linear (regular expressions
 * that backtrack quadratically on long runs): the oracle the linear cleaner must equal, on short
 * texts where these expressions are fast. Frozen; never imported by src/.
 */
import { isLabelLine, isSummaryOpener } from '../../src/audit/clean.js';

const CJK = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef`;
const ITALIC = new RegExp(
  String.raw`(?<![*\p{L}\p{N}_${CJK}])\*([A-Za-z0-9](?:[^*\n]*?[A-Za-z0-9])?)\*(?![*\p{L}\p{N}_${CJK}])`,
  'gu',
);

/** The rules of pass 1 as the original regular expressions, in order. */
export const REFERENCE_RULES: ReadonlyArray<{ name: string; pattern: RegExp; replace: string }> = [
  { name: 'image', pattern: /!\[([^\]\n]*)\]\([^)\n]*\)/g, replace: '$1' },
  { name: 'link', pattern: /\[([^\]\n]*)\]\([^)\n]*\)/g, replace: '$1' },
  {
    name: 'fenced-code',
    pattern: /^[ \t]*(```|~~~)[^\n]*\n([\s\S]*?)\n?[ \t]*\1[ \t]*$/gm,
    replace: '$2',
  },
  { name: 'inline-code', pattern: /`([^`\n]+)`/g, replace: '$1' },
  { name: 'bold-asterisk', pattern: /\*\*([^\n]+?)\*\*/g, replace: '$1' },
  { name: 'bold-underscore', pattern: /__([^\n]+?)__/g, replace: '$1' },
  { name: 'italic', pattern: ITALIC, replace: '$1' },
  { name: 'heading', pattern: /^[ \t]{0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm, replace: '$1' },
  { name: 'bullet', pattern: /^([ \t]*)[-*+][ \t]+/gm, replace: '$1' },
  { name: 'ordered', pattern: /^([ \t]*)\d+\.[ \t]+/gm, replace: '$1' },
  { name: 'blockquote', pattern: /^[ \t]*(?:>[ \t]?)+/gm, replace: '' },
  { name: 'rule', pattern: /^[ \t]*(?:-{3,}|\*{3,})[ \t]*$/gm, replace: '' },
  { name: 'html', pattern: /<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g, replace: '' },
];

export function referenceStripMarkdown(text: string): string {
  let out = text.replace(/\r\n?/g, '\n');
  for (const rule of REFERENCE_RULES) out = out.replace(rule.pattern, rule.replace);
  return out;
}

export function referenceStripScaffold(text: string): string {
  let lines = text.split('\n');
  let cut = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (isSummaryOpener(lines[i]!)) {
      cut = i;
      break;
    }
  }
  if (cut > 0 && lines.slice(0, cut).some((l) => l.trim().length > 0)) lines = lines.slice(0, cut);
  lines = lines.filter((l) => !isLabelLine(l));
  const joined = lines.map((l) => l.replace(/\s+$/u, '')).join('\n');
  return joined.replace(/\n{2,}/g, '\n').replace(/^\n+|\n+$/g, '');
}
