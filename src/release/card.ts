/**
 * The Hugging Face dataset card (`README.md`: a YAML header, then sections) and `LICENSES.md`.
 * The card's sections come from the same release.yaml texts and generated texts as the `rai:`
 * fields of croissant.json, so the two never say different things.
 */
import { stringify } from 'yaml';
import type { GeneratedRai } from './croissant.js';
import type { LicenceRule } from './licences.js';
import type { ReleaseMeta } from './meta.js';
import type { ColumnType, Table } from './tables.js';

/** Licence ids the Hub knows (its `license` field takes them in lower case). */
const HUB_LICENCES = new Set([
  'cc0-1.0',
  'cc-by-2.0',
  'cc-by-2.5',
  'cc-by-3.0',
  'cc-by-4.0',
  'cc-by-sa-3.0',
  'cc-by-sa-4.0',
  'cc-by-nc-2.0',
  'cc-by-nc-3.0',
  'cc-by-nc-4.0',
  'cc-by-nc-sa-2.0',
  'cc-by-nc-sa-3.0',
  'cc-by-nc-sa-4.0',
  'mit',
  'apache-2.0',
  'odc-by',
  'pddl',
]);

const DTYPE: Record<ColumnType, string> = {
  string: 'string',
  int: 'int32',
  float: 'float64',
  bool: 'bool',
};

/** An entry's licence as the release decided it. */
export interface EntryLicence {
  entry: string;
  license: string;
  rule: LicenceRule;
  credit: string | null;
  source_url: string | null;
  images: number;
  /** Of `images`, those the release ships (fewer than its licence allows when another entry's licence withholds the same bytes). */
  shipped: number;
}

/** The card's `license` (and `license_name`, `license_link` when it is `other`). */
function cardLicence(meta: ReleaseMeta, entries: readonly EntryLicence[]) {
  const ids = new Set([
    meta.license.toLowerCase(),
    ...entries.filter((e) => e.rule.decision !== 'no').map((e) => e.rule.id.toLowerCase()),
  ]);
  const [only] = [...ids];
  if (ids.size === 1 && only !== undefined && HUB_LICENCES.has(only)) return { license: only };
  return { license: 'other', license_name: 'mixed', license_link: 'LICENSES.md' };
}

function header(
  meta: ReleaseMeta,
  tables: readonly Table[],
  languages: string[],
  entries: readonly EntryLicence[],
) {
  return {
    ...cardLicence(meta, entries),
    language: languages,
    pretty_name: meta.title,
    tags: meta.keywords,
    configs: tables.map((t, i) => ({
      config_name: t.name,
      ...(i === 0 ? { default: true } : {}),
      data_files: [{ split: 'train', path: `data/${t.name}.parquet` }],
    })),
    dataset_info: tables.map((t) => ({
      config_name: t.name,
      features: t.columns.map((c) => ({ name: c.name, dtype: DTYPE[c.type] })),
      splits: [{ name: 'train', num_examples: t.rows.length }],
    })),
  };
}

/** The dataset card. */
export function datasetCard(
  meta: ReleaseMeta,
  tables: readonly Table[],
  languages: string[],
  entries: readonly EntryLicence[],
  rai: GeneratedRai,
  digest: string,
): string {
  const withheld = entries.filter((e) => e.shipped < e.images);
  const sections: Array<[string, string]> = [
    [
      'Dataset structure',
      tables
        .map(
          (t) =>
            `- \`${t.name}\` (${t.rows.length} rows; \`data/${t.name}.parquet\`, \`data/${t.name}.csv\`): ${t.description}.`,
        )
        .join('\n'),
    ],
    [
      'Licences',
      `The data this release made (responses, scores, ratings) is under ${meta.license}. Each image keeps its source's licence, and ships only when that licence allows redistribution of it and of its variants (derivative works); LICENSES.md lists every entry. ${withheld.length === 0 ? 'Every image ships.' : `Withheld (${withheld.length} entries: ${withheld.map((e) => e.entry).join(', ')}): their rows in \`stimuli\` give the source URL, sha256, perceptual hash and recipe; \`stimkit rehydrate <this folder> --images DIR\` rebuilds them from your own copy and checks every sha256. Responses say whether their images ship (\`stimulus_available\`).`}`,
    ],
    [
      'Sealed bundle',
      `Every trial comes from the sealed stimkit bundle ${digest} (the sha256 of its manifest-sha256.txt).`,
    ],
    ['Data collection', `${meta.collection}\n\n${rai.collectionType}\n\n${rai.rawData}`],
    ['Preprocessing', rai.preprocessing],
    ['Annotation', `${rai.annotation}\n\nTools: ${rai.tools.join('; ')}.`],
    ['Personal and sensitive information', meta.personal_sensitive_information],
    ['Uses', meta.use_cases],
    ['Biases', meta.biases],
    ['Limitations', meta.limitations],
    ['Social impact', meta.social_impact],
    ['Maintenance', meta.maintenance],
    ['Citation', `\`\`\`bibtex\n${meta.cite_as.trim()}\n\`\`\``],
  ];
  return `---\n${stringify(header(meta, tables, languages, entries))}---\n\n# ${meta.title}\n\n${meta.description}\n\n${sections.map(([h, b]) => `## ${h}\n\n${b}\n`).join('\n')}`;
}

/** Whether an entry's images ship: `yes (7)`, `no`, or `6 of 7` with why the others do not. */
function shipsCell(e: EntryLicence): string {
  if (e.shipped === e.images) return `yes (${e.images})`;
  if (e.shipped === 0 && e.rule.decision === 'no') return 'no';
  return `${e.shipped} of ${e.images} (the others are also another entry's images, whose licence withholds them)`;
}

/** LICENSES.md: every entry's licence, what it allows, and whether its images ship. */
export function licencesMd(meta: ReleaseMeta, entries: readonly EntryLicence[]): string {
  const cell = (s: string | null) => (s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const rows = entries.map(
    (e) =>
      `| ${cell(e.entry)} | ${cell(e.license)} | ${e.rule.decision} | ${shipsCell(e)} | ${cell(e.rule.note)} | ${cell(e.credit)} | ${cell(e.source_url)} |`,
  );
  return `# Licences\n\nThe data this release made (responses, scores, ratings, the tables) is under ${meta.license}. Each image and every variant of it keeps the licence of its source image:\n\n| entry | licence | decision | ships (images) | conditions | credit | source |\n| --- | --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}\n`;
}
