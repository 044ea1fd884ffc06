/**
 * Where a piece of stimulus text comes from: verbatim from a paper, written for stimkit, or a
 * translation (human draft or machine draft) still waiting for review. Shared by topics, wrapper
 * pools and prompt cards, and carried through to every expanded item so that a bundle can say
 * which of its texts are published and which are drafts.
 */
import { z } from 'zod';
import { LangCode } from '../ingest/schema.js';

/**
 * - `published`: verbatim from a published source (`source` names it).
 * - `adjudicated`: translated and adjudicated by people (forward and back translation).
 * - `authored`: written for stimkit in the style of the source; no published counterpart.
 * - `drafted-pending-adjudication`: a human or LLM-assisted translation draft from `derived_from`,
 *   not yet adjudicated.
 * - `machine-draft-pending-review`: produced by a program (`method`) from `derived_from`, not yet
 *   reviewed by a person.
 */
const ProvenanceStatus = z.enum([
  'published',
  'adjudicated',
  'authored',
  'drafted-pending-adjudication',
  'machine-draft-pending-review',
]);
type ProvenanceStatus = z.output<typeof ProvenanceStatus>;

/** A replacement applied after a machine conversion, recorded so that a reviewer can check it. */
export const PostEdit = z.strictObject({
  find: z.string().min(1),
  replace: z.string(),
  reason: z.string().min(1),
});
export type PostEdit = z.output<typeof PostEdit>;

/** The provenance record of a text (or of every text of a language, as a default). */
export const TextProvenance = z
  .strictObject({
    status: ProvenanceStatus,
    /** Citation of the published source, e.g. "dual-framing paper, Supplementary Note 1". */
    source: z.string().min(1).optional(),
    /** The text this one was translated or converted from. */
    derived_from: z.strictObject({ lang: LangCode, id: z.string().min(1).optional() }).optional(),
    /** How it was made, e.g. "opencc-js 1.4.2, Converter({from: 'cn', to: 'tw'})". */
    method: z.string().min(1).optional(),
    /** Replacements applied after a machine conversion. */
    post_edits: z.array(PostEdit).optional(),
    notes: z.string().optional(),
  })
  .superRefine((p, ctx) => {
    if (p.status === 'published' && !p.source) {
      ctx.addIssue({
        code: 'custom',
        path: ['source'],
        message: 'a published text needs `source` (the citation)',
      });
    }
    if (
      (p.status === 'drafted-pending-adjudication' ||
        p.status === 'machine-draft-pending-review') &&
      !p.derived_from
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['derived_from'],
        message: `a ${p.status} text needs \`derived_from\` (the language it was translated from)`,
      });
    }
    if (p.status === 'machine-draft-pending-review' && !p.method) {
      ctx.addIssue({
        code: 'custom',
        path: ['method'],
        message: 'a machine draft needs `method` (the program and its settings)',
      });
    }
  });
export type TextProvenance = z.output<typeof TextProvenance>;

/** True for texts nobody has reviewed yet (drafts of either kind). */
export function isDraft(p: TextProvenance): boolean {
  return p.status === 'drafted-pending-adjudication' || p.status === 'machine-draft-pending-review';
}

/**
 * `extends`: the file this one builds on (relative path, or `stimkit:<name>`), or a list of files
 * that build on one base file, combined (e.g. two language files of one topics file).
 */
export const ExtendsRef = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
