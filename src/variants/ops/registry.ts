/**
 * The abstraction ladder, A0 … A6: one file per variant, listed here in order. `--only` codes are
 * checked against this list.
 */
import { StimkitError } from '../../core/errors.js';
import { binary } from './binary.js';
import { crop } from './crop.js';
import { edges } from './edges.js';
import { grayscale } from './grayscale.js';
import { lowpassVariant } from './lowpass.js';
import { original } from './original.js';
import { silhouette } from './silhouette.js';
import { VARIANT_CODES, type VariantCode, type VariantDef } from '../types.js';

export const VARIANTS: readonly VariantDef[] = [
  original,
  crop,
  grayscale,
  edges,
  binary,
  lowpassVariant,
  silhouette,
];

/** The variant with this code. */
export function variantByCode(code: VariantCode): VariantDef {
  return VARIANTS.find((v) => v.code === code)!;
}

/** Output file name of a variant inside its entry's folder: `A3-edges.png`. */
export function variantFileName(v: VariantDef): string {
  return `${v.code}-${v.name}.png`;
}

/**
 * Parse `--only` codes (case-insensitive, `A3` or `edges` or `A3-edges`) into ladder order.
 * Throws `E_VARIANTS_UNKNOWN_CODE` (exit 1) naming the allowed codes.
 */
export function parseOnly(items: readonly string[] | undefined): VariantCode[] {
  if (!items || items.length === 0) return [...VARIANT_CODES];
  const picked = new Set<VariantCode>();
  const unknown: string[] = [];
  for (const raw of items) {
    const s = raw.trim().toLowerCase();
    const v = VARIANTS.find(
      (d) =>
        d.code.toLowerCase() === s || d.name === s || `${d.code}-${d.name}`.toLowerCase() === s,
    );
    if (v) picked.add(v.code);
    else unknown.push(raw);
  }
  if (unknown.length > 0) {
    throw StimkitError.fromProblem({
      code: 'E_VARIANTS_UNKNOWN_CODE',
      field: '--only',
      message: `unknown variant code${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => JSON.stringify(u)).join(', ')}`,
      expected: `a comma-separated list of ${VARIANTS.map((v) => `${v.code} (${v.name})`).join(', ')}`,
      got: items.join(','),
      fix: 'use the codes A0–A6, e.g. --only A3,A5',
    });
  }
  return VARIANT_CODES.filter((c) => picked.has(c));
}
