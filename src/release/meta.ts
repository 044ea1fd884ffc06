/**
 * `release.yaml`: what only a person can write about a dataset release (collection, limitations,
 * biases, social impact, maintenance, who made it, how to cite it). The zod schema is the source
 * of truth; docs/formats/release.md describes every field. `stimkit release` writes the template
 * when the file is missing and refuses every field still holding `TODO` (E_RELEASE_META).
 */
import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { StimkitError } from '../core/errors.js';
import { exists } from '../core/fsio.js';
import { loadDataFile } from '../core/datafile.js';

const RELEASE_META_FORMAT = 'stimkit.release-meta';

const Filled = z
  .string()
  .trim()
  .min(1)
  .refine((s) => !/^TODO\b/.test(s), {
    message: 'still the template’s TODO',
    params: { expected: 'your own text', fix: 'replace the TODO with what the field asks for' },
  });

/** One creator: a person or an organisation. */
const Creator = z.strictObject({
  name: Filled,
  type: z.enum(['Person', 'Organization']).default('Person'),
  url: z.url().optional(),
  affiliation: z.string().optional(),
});

/** `release.yaml`. */
export const ReleaseMeta = z.strictObject({
  format: z.literal(RELEASE_META_FORMAT),
  version: z.literal(1),
  name: Filled.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, . _ - only'),
  title: Filled,
  description: Filled,
  /** The licence of what the release itself made (responses, scores, ratings): an SPDX id. */
  license: Filled,
  url: z.url().refine((u) => !u.includes('TODO'), {
    message: 'still the template’s TODO',
    params: { expected: 'the dataset’s web page', fix: 'give the URL where the dataset lives' },
  }),
  version_label: Filled.default('1.0.0'),
  date_published: z.iso.date(),
  creators: z.array(Creator).min(1),
  cite_as: Filled,
  keywords: z.array(z.string()).default([]),
  collection: Filled,
  limitations: Filled,
  biases: Filled,
  social_impact: Filled,
  maintenance: Filled,
  personal_sensitive_information: Filled,
  use_cases: Filled,
});
export type ReleaseMeta = z.output<typeof ReleaseMeta>;

/** The template written when release.yaml is missing. */
const RELEASE_TEMPLATE = `# What only you can write about this release. stimkit release reads it; every TODO must go.
format: ${RELEASE_META_FORMAT}
version: 1
name: TODO-dataset-name          # letters, digits, . _ - (the Hugging Face repository name)
title: TODO a title
description: TODO what the dataset holds and what it is for
license: TODO an SPDX id for the data you made (responses, scores, ratings), e.g. CC-BY-4.0
url: https://example.org/TODO-where-the-dataset-lives
version_label: 1.0.0
date_published: 2026-01-01       # the release date: not the clock, so the same inputs give the same bytes
creators:
  - name: TODO your name
    type: Person                 # or Organization
cite_as: TODO a BibTeX entry for the dataset
keywords: []
collection: TODO how the images and prompts were collected and selected
limitations: TODO what the data cannot support
biases: TODO known biases (of the images, the prompts, the models, the labels)
social_impact: TODO the possible uses and harms
maintenance: TODO who maintains the release, how errors are reported and fixed
personal_sensitive_information: TODO whether people are identifiable, and what was done about it
use_cases: TODO the uses the dataset is meant for, and those it is not
`;

/**
 * Read and check release.yaml; when it is missing, write the template there and refuse, naming
 * what must be filled.
 */
export async function loadReleaseMeta(file: string): Promise<ReleaseMeta> {
  if (!(await exists(file))) {
    await writeFile(file, RELEASE_TEMPLATE, { flag: 'wx' });
    throw StimkitError.fromProblem({
      code: 'E_RELEASE_META',
      file,
      message: `no release.yaml: wrote the template. Fill in name, title, description, license, url, date_published, creators, cite_as, collection, limitations, biases, social_impact, maintenance, personal_sensitive_information and use_cases`,
      fix: 'replace every TODO in the template, then run stimkit release again',
    });
  }
  return (await loadDataFile(file, ReleaseMeta, 'E_RELEASE_META')).data;
}
