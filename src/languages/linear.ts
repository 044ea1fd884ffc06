/**
 * The D1 cues of a pack are regular expressions run over model text, which is hostile: a cue that
 * can backtrack super-linearly would let one answer stall scoring. Every cue is parsed with
 * regexpp and refused when it
 * - uses a backreference, or a lookaround with a repeat inside (a lookaround of a fixed few
 *   characters, such as the word end `(?![\p{L}])`, is a constant-time check), or
 * - can backtrack super-linearly as scslre finds it (the analysis behind eslint-plugin-regexp's
 *   `no-super-linear-backtracking` and `no-super-linear-move`): nested or adjacent repeats that
 *   can take the same characters (`(a+)+`, `\s*\s*`), and a repeat an unanchored search retries
 *   from every start (`(?:x|y)+z`).
 * Literal words, alternatives, classes and bounded repeats pass.
 */
import type * as Regexpp from '@eslint-community/regexpp';
import type * as Scslre from 'scslre';
import { lazyRequire } from '../core/lazy.js';

// Both load on the first cue checked: a bundle without a language pack of its own never needs them.
const regexpp = lazyRequire<typeof Regexpp>('@eslint-community/regexpp');
const scslre = lazyRequire<typeof Scslre>('scslre');

let cueParser: Regexpp.RegExpParser | undefined;
/** The parser for cues: ECMAScript 2024, as Node 20 compiles them (flags `iu`). */
const parser = () => (cueParser ??= new (regexpp().RegExpParser)({ ecmaVersion: 2024 }));

/** What makes `source` not linear, in words; null when it is linear (or does not parse: compile it to say why). */
export function nonLinearReason(source: string): string | null {
  let ast: Regexpp.AST.RegExpLiteral;
  try {
    ast = parser().parseLiteral(`/${source.replace(/\//g, '\\/')}/iu`);
  } catch {
    return null;
  }
  let found: string | null = null;
  regexpp().visitRegExpAST(ast, {
    onBackreferenceEnter: (n) => void (found ??= `the backreference ${n.raw}`),
    onQuantifierEnter: (n) => {
      let up: Regexpp.AST.Node | null = n.parent;
      while (up && up.type !== 'Assertion') up = up.parent;
      if (up) found ??= `the repeat ${n.raw} inside the lookaround ${up.raw}`;
    },
  });
  if (found) return found;
  const report = scslre().analyse(ast, { reportTypes: { Move: true, Self: true, Trade: true } })
    .reports[0];
  if (!report) return null;
  const what = report.exponential ? 'exponential' : 'polynomial';
  const char = JSON.stringify(report.character.pick);
  return report.type === 'Move'
    ? `a repeat an unanchored search retries from every ${char} (${what} time on a run of them)`
    : `repeats that can take the same ${char} (${what} time on a run of them)`;
}
