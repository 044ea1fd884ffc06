/**
 * What the rater app's page may send: one answer change (`POST /api/answer`) or a preference
 * (`POST /api/prefs`: interface language, single-key shortcuts on or off). Anything else is
 * refused with 400; preferences are kept in the rater file's `meta` table.
 */
import { isUiLang, type UiLang } from './i18n.js';
import { DIMENSIONS, STRATEGIES, type FieldChange } from './store.js';

/** Validate one answer change from the page. */
export function parseChange(field: unknown, value: unknown): FieldChange | null {
  if ((DIMENSIONS as readonly unknown[]).includes(field)) {
    if (
      value === null ||
      value === 'true' ||
      value === 'false' ||
      (value === 'na' && field === 'd3')
    )
      return { field, value } as FieldChange;
    return null;
  }
  if ((STRATEGIES as readonly unknown[]).includes(field)) {
    return typeof value === 'boolean' || value === null ? ({ field, value } as FieldChange) : null;
  }
  if (field === 'note')
    return typeof value === 'string' && value.length <= 20_000 ? { field: 'note', value } : null;
  return null;
}

/** The rater's preferences as stored in the rater file's meta table. */
export interface Prefs {
  lang?: UiLang;
  shortcuts?: 'on' | 'off';
}

/** Validate a preferences change (`{lang?: 'zh'|'en', shortcuts?: boolean}`), or null. */
export function parsePrefs(body: unknown): Prefs | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const b = body as Record<string, unknown>;
  const keys = Object.keys(b);
  if (keys.length === 0 || keys.some((k) => k !== 'lang' && k !== 'shortcuts')) return null;
  const out: Prefs = {};
  if ('lang' in b) {
    if (!isUiLang(b.lang)) return null;
    out.lang = b.lang;
  }
  if ('shortcuts' in b) {
    if (typeof b.shortcuts !== 'boolean') return null;
    out.shortcuts = b.shortcuts ? 'on' : 'off';
  }
  return out;
}
