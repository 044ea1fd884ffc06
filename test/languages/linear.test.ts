/**
 * D1 cues of a pack run over model text: a cue that can backtrack super-linearly, or that uses a
 * backreference or a repeat inside a lookaround, is refused when the pack is read, naming the cue.
 */
import { describe, expect, it } from 'vitest';
import { StimkitError } from '../../src/core/errors.js';
import { packFromText, shippedPacks } from '../../src/languages/load.js';
import { nonLinearReason } from '../../src/languages/linear.js';

const pack = (cues: string[]) => `format: stimkit.language
version: 1
tag: fr
scripts: [Latn]
direction: ltr
names: {own: Français, en: French}
sources: [{title: 'Grevisse & Goosse, Le Bon Usage (16th ed., 2016)'}]
matching: {normalization: NFC, ignore_joiners: false}
sentence_ends: {before_space: ['.']}
d1_refusal:
  policy:
${cues.map((c) => `    - ${JSON.stringify(c)}`).join('\n')}
`;

/** The problems reading a pack with these policy cues gives. */
function problems(cues: string[]) {
  try {
    packFromText('fr.yaml', pack(cues));
  } catch (err) {
    return (err as StimkitError).problems;
  }
  return [];
}

describe('linear cues', () => {
  it('refuses a catastrophic cue, naming it, its line and the fix', () => {
    const [p, ...rest] = problems(['je ne peux pas', '(a+)+$']);
    expect(rest).toEqual([]);
    expect(p).toMatchObject({
      code: 'E_LANGUAGE_PACK',
      file: 'fr.yaml',
      field: 'd1_refusal.policy[1]',
      line: 13,
      got: '(a+)+$',
    });
    expect(p!.message).toMatch(/super-linear.*exponential/);
    expect(p!.expected).toMatch(/linear cue/);
    expect(p!.fix).toMatch(/bound the repeat/);
  });
  it('refuses polynomial repeats, a retried repeat, backreferences and lookarounds', () => {
    expect(nonLinearReason('\\s*\\s*refus')).toMatch(/polynomial/);
    expect(nonLinearReason('\\w+ refuse')).toMatch(/unanchored search retries/);
    expect(nonLinearReason('(\\w+)\\s\\1')).toMatch(/backreference \\1/);
    expect(nonLinearReason('(?<=je\\s+)refuse')).toMatch(/repeat \\s\+ inside the lookaround/);
    expect(nonLinearReason('refuse(?!(?: pas)*$)')).toMatch(/inside the lookaround/);
    expect(problems(['(\\w+)\\s\\1', '(?<=je\\s+)refuse']).map((p) => p.field)).toEqual([
      'd1_refusal.policy[0]',
      'd1_refusal.policy[1]',
    ]);
  });
  it('passes words, alternatives, classes and bounded repeats, and every shipped cue', () => {
    for (const c of [
      'je ne peux pas',
      'ne (?:peux|sais) pas (?:identifier|dire)',
      '[ée]tat',
      'x\\s{1,3}y',
    ])
      expect(nonLinearReason(c)).toBeNull();
    const cues = shippedPacks().flatMap((p) => Object.values(p.pack.d1_refusal ?? {}).flat());
    expect(cues.length).toBeGreaterThan(40);
    expect(cues.filter((c) => nonLinearReason(c) !== null)).toEqual([]);
  });
});
