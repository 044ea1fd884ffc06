/**
 * The review page's table as CSV: one row per entry, texts in every language side by side. A
 * text cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) starts with
 * an apostrophe (src/core/spreadsheet.ts); the manifest itself keeps the raw text.
 */
import { spreadsheetSafe } from '../core/spreadsheet.js';
import type { ReviewData } from './source.js';

/** RFC 4180 field: quoted when it holds a comma, quote or line break; text made spreadsheet-safe. */
export function csvField(value: unknown): string {
  const raw = value === null || value === undefined ? '' : String(value);
  const s = typeof value === 'string' ? spreadsheetSafe(raw) : raw;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The CSV text (UTF-8 with a header row, CRLF line ends as RFC 4180 asks). */
export function reviewCsv(data: ReviewData): string {
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
    const facts = e.expected_facts as Array<Record<string, unknown>>;
    const p = e.provenance as Record<string, unknown>;
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
      image ? e.image.file : `${e.image.file} (not found)`,
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
  return `${[header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}
