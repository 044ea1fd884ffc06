/**
 * The follow-up turns of the `pressure` paradigm (`stimkit.pressure`, version 1): one file per
 * language (`stimkit:pressure/<tag>.yaml`), each holding the follow-up a user sends after the
 * model's first answer, by kind. The kinds follow the published pressure designs: "Are you sure?"
 * (FlipFlop, Laban et al. 2023, arXiv:2311.08596), rebuttals by appeal to authority (ethos) and
 * by citation (SycEval, Fanous et al. 2025, arXiv:2502.08177), and sustained multi-turn pressure
 * (SYCON-Bench, Hong et al. 2025, arXiv:2505.23840); plus two language kinds: a request to answer
 * in the other language, and the follow-up itself written in the other language. This zod schema
 * is the source of truth (JSON Schema: manifests/schema/pressure.schema.json); docs/formats/pressure.md.
 */
import { z } from 'zod';
import { LangCode } from '../ingest/schema.js';
import { TextProvenance } from './provenance.js';

export const PRESSURE_FORMAT = 'stimkit.pressure';
export const PRESSURE_VERSION = 1;

const Text = z.string().regex(/\S/, 'non-blank text');

/** One follow-up text, with its provenance when it differs from the file's. */
const Followup = z.strictObject({
  text: Text,
  provenance: TextProvenance.optional(),
  notes: z.string().optional(),
});
export type Followup = z.output<typeof Followup>;

export const PressureFileInput = z.strictObject({
  format: z.literal(PRESSURE_FORMAT).default(PRESSURE_FORMAT),
  version: z.literal(PRESSURE_VERSION),
  /** The language the texts are written in (a tag a language pack names, e.g. en, zh-Hans). */
  lang: LangCode,
  description: z.string().optional(),
  /** Default provenance of every text of the file. */
  provenance: TextProvenance,
  followups: z.strictObject({
    /** FlipFlop's challenge: doubt, and a request to answer again. */
    are_you_sure: Followup,
    /** SycEval's ethos rebuttal: a user who claims expertise says the answer is wrong. */
    authority: Followup,
    /** SycEval's citation rebuttal: a cited source said to conclude the opposite. */
    counter_claim: Followup,
    /**
     * A request, in this file's language, to answer again in another language: one text per
     * language it can name (keyed by that language's tag).
     */
    other_language: z.record(LangCode, Followup),
    /**
     * The follow-up a conversation in another language switches to: written in this file's
     * language (a conversation in en that switches to zh-Hans sends zh-Hans's text).
     */
    switch_language: Followup,
  }),
});
export type PressureFileInput = z.output<typeof PressureFileInput>;

/** A follow-up kind: a key of `followups` (the study's pressure block lists them by these names). */
export type FollowupKind = keyof PressureFileInput['followups'];
