/** The review page's table as CSV: one row per entry, texts in every language side by side. */
import { csvText, type Cell, type CsvWriteOptions } from '../core/csv.js';
import type { ReviewData } from './source.js';

/**
 * The CSV text (UTF-8 with a header row, CRLF line ends as RFC 4180 asks; cells a spreadsheet
 * would run as formulas neutralised unless `csv.raw`).
 */
export function reviewCsv(data: ReviewData, csv: Omit<CsvWriteOptions, 'eol'> = {}): string {
  const langs = data.languages;
  const header = [
    'id',
    'topic',
    'sensitivity',
    'roles',
    ...langs.map((l) => `title_${l}`),
    'facts',
    ...langs.map((l) => `facts_${l}`),
    ...langs.map((l) => `anchor_${l}`),
    'image',
    'archive',
    'source_url',
    'credit',
    'date_taken',
    'date_retrieved',
    'license',
    'ladder',
    'warnings',
  ];
  const rows = data.entries.map(({ entry: e, image, warnings, ladder }) => {
    const facts = e.expected_facts;
    const p = e.provenance;
    const source = e.image?.file ?? '';
    return [
      e.id,
      e.topic,
      e.sensitivity,
      e.roles.join(' '),
      ...langs.map((l) => e.title[l] ?? ''),
      facts.length,
      ...langs.map((l) =>
        facts
          .map((f) => `${String(f.id)}: ${typeof f[l] === 'string' ? f[l] : '(missing)'}`)
          .join(' | '),
      ),
      ...langs.map((l) => e.anchor?.name[l] ?? ''),
      image ? source : `${source} (not found)`,
      p.archive,
      p.source_url,
      p.credit,
      p.date_taken,
      p.date_retrieved,
      p.license,
      ladder
        .filter((r) => r.file)
        .map((r) => r.code)
        .join(' '),
      warnings.map((w) => `${w.code}: ${w.message}`).join(' | '),
    ];
  });
  return csvText(header, rows as Cell[][], { ...csv, eol: '\r\n' });
}
