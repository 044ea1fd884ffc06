/**
 * A language pack (`stimkit.language`, version 1): every rule the scorers need for one language,
 * as data. The format page is docs/formats/languages.md. Each rule section is optional: a column
 * whose rule a pack lacks is left empty with the reason `no_rules_for_language`, never 0.
 */
import { z } from 'zod';
import { SCRIPT_CODES } from './scripts.js';

const phrases = z.array(z.string().min(1)).min(1);
/** A single character (one code point, which may be outside the BMP). */
const oneChar = z.string().refine((s) => [...s].length === 1, 'one character');

/** What the instrument parser reads (docs/formats/scores.md). */
const Instrument = z.strictObject({
  /** The four answer labels as this language's wrapper pools usually spell them (for `check`). */
  labels: z
    .strictObject({
      strongly_agree: z.string().min(1),
      agree: z.string().min(1),
      disagree: z.string().min(1),
      strongly_disagree: z.string().min(1),
    })
    .optional(),
  /**
   * Forms of `labels` negated inside the word, as the language's morphology makes them (a verb's
   * negative suffix: Uyghur قوشۇلمايمەن "I do not agree" of قوشۇلىمەن "I agree"). An answer naming
   * one negates the pool option whose label is that label, unless the form is itself a pool label.
   */
  negated_labels: z
    .strictObject({
      strongly_agree: phrases.optional(),
      agree: phrases.optional(),
      disagree: phrases.optional(),
      strongly_disagree: phrases.optional(),
    })
    .optional(),
  /** Phrases that introduce the answer, without the colon. */
  answer_markers: phrases,
  /** What may follow a marker besides `:` and `：` (the Tibetan shad in `ལན།`). */
  marker_ends: z.array(oneChar).default([]),
  neutral: phrases,
  refusal: phrases,
  /** Whole words that negate a label later in the same clause (`not`, `не`). */
  negations: z.array(z.string().min(1)).default([]),
  /** Strings that negate a label when they end within the clause's last few letters (`不`, `མི་`). */
  negation_affixes: z.array(z.string().min(1)).default([]),
  /**
   * Whole words that negate a label before them: one of the next two words after the label in its
   * clause (verb-final languages: Uyghur ئەمەس "is not", ئېيتالمايمەن "I cannot say").
   */
  negations_after: z.array(z.string().min(1)).default([]),
});

/**
 * The D1 lexical refusal cues: regular expressions, matched case-insensitively (flags `iu`). A
 * section without a single cue would read every answer as no refusal (English's cues alone): it is
 * refused; a pack without the section leaves the lexical columns not computed.
 */
const Refusal = z
  .strictObject({
    capability: z.array(z.string().min(1)).default([]),
    policy: z.array(z.string().min(1)).default([]),
    refutation: z.array(z.string().min(1)).default([]),
    vague: z.array(z.string().min(1)).default([]),
  })
  .refine((r) => r.capability.length + r.policy.length + r.refutation.length + r.vague.length > 0, {
    message:
      'd1_refusal has no cue: give at least one pattern (capability, policy, refutation or vague), or leave the section out (the lexical refusal columns are then not computed for the language)',
  });

/** Appendix O pass 2: summary openers and section-label lines. */
const Summary = z.strictObject({
  /** Words that open a trailing summary block at a line's start. */
  openers: phrases,
  /** Whether an opener must end a word (`Note` is not `Notebook`): for scripts with spaces. */
  whole_word: z.boolean(),
});
const Headings = z.strictObject({
  /** Characters that end a bare label line (`:`, `：`, `།`). */
  label_ends: z.array(oneChar).min(1),
  /** Characters allowed inside a label besides letters, marks and digits (the tsheg `་`). */
  inner: z.array(oneChar).default([]),
  /** At most this many of the `inner` characters: a label is a word, not a sentence. */
  max_inner: z.int().min(0).optional(),
});

/** A BCP 47 tag as a pack names its language (`ug`, `zh-Hant-HK`); case is not significant. */
const PackTag = z
  .string()
  .regex(
    /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/,
    'a BCP 47 language tag: subtags joined by "-" (ug, zh-Hant, mn-Mong)',
  );

export const LanguagePackSchema = z.strictObject({
  format: z.literal('stimkit.language'),
  version: z.literal(1),
  /** The BCP 47 tag. */
  tag: PackTag,
  /** Other tags that mean this pack (`zh` for zh-Hans, as studies write it). */
  aliases: z.array(PackTag).default([]),
  /** ISO 15924 codes of the scripts the language is written in (`Latn`, `Hans`, `Arab`). */
  scripts: z.array(z.enum(SCRIPT_CODES)).min(1),
  direction: z.enum(['ltr', 'rtl']),
  names: z.strictObject({ own: z.string().min(1), en: z.string().min(1) }),
  /** Grammar references the rules were written from. */
  sources: z.array(z.strictObject({ title: z.string().min(1), url: z.url().optional() })).min(1),
  /** How text is compared: Unicode normalization, and joiners (ZWNJ, ZWJ) ignored. */
  matching: z.strictObject({
    normalization: z.enum(['NFC', 'NFKC']),
    ignore_joiners: z.boolean(),
  }),
  /** Characters that end a sentence: `anywhere`, or only before white space (`.`, not 3.5). */
  sentence_ends: z.strictObject({
    before_space: z.array(oneChar).default([]),
    anywhere: z.array(oneChar).default([]),
  }),
  /** Characters that end a clause besides the sentence ends (the Arabic comma `،`). */
  clause_ends: z.array(oneChar).default([]),
  instrument: Instrument.optional(),
  d1_refusal: Refusal.optional(),
  summary: Summary.optional(),
  headings: Headings.optional(),
});
export type LanguagePack = z.output<typeof LanguagePackSchema>;
