/**
 * How many input tokens an image counts as, by the rule its vendor publishes (the `image_tokens`
 * of a price block, src/models/price.ts). For the estimate only: the cost a result records comes
 * from the usage the vendor reports.
 *
 * - OpenAI, "Images and vision", "Calculating costs"
 *   (platform.openai.com/docs/guides/images-vision#calculating-costs): tile models fit the image
 *   into 2048 × 2048, scale its short side down to 768, and bill `base + tile × (512-px tiles)`,
 *   `detail: low` billing `base` alone (1024 × 1024 high → 765 with 85/170; 2048 × 4096 → 1105);
 *   patch models bill 32-px patches, scaled down to at most 1536 (1800 × 2400 → 1452), times a
 *   per-model multiplier.
 * - Anthropic, "Vision", "Evaluate image size" / "Calculate image costs"
 *   (docs.claude.com/en/docs/build-with-claude/vision): tokens = width × height / 750, after the
 *   API scales an image down until its long edge is ≤ 1568 px and it is ≤ ~1,600 tokens.
 * - Google, "Understand and count tokens" (ai.google.dev/gemini-api/docs/tokens): Gemini 2.x
 *   counts an image with both sides ≤ 384 px as 258 tokens; a larger one is cropped and scaled
 *   into 768 × 768 tiles of 258 tokens each.
 */
import type { ImageTokenRule } from '../models/price.js';

/** A low–high range of tokens. */
export interface TokenRange {
  low: number;
  high: number;
}

function openAiTiles(w: number, h: number, base: number, tile: number): number {
  let fit = Math.min(1, 2048 / Math.max(w, h));
  let sw = w * fit;
  let sh = h * fit;
  fit = Math.min(1, 768 / Math.min(sw, sh));
  sw *= fit;
  sh *= fit;
  return base + tile * Math.ceil(Math.floor(sw) / 512) * Math.ceil(Math.floor(sh) / 512);
}

/** OpenAI's patch count: 32-px patches, the image scaled down to at most `max` patches. */
export function openAiPatches(w: number, h: number, max: number): number {
  const raw = Math.ceil(w / 32) * Math.ceil(h / 32);
  if (raw <= max) return raw;
  let shrink = Math.sqrt((32 * 32 * max) / (w * h));
  const pw = (w * shrink) / 32;
  const ph = (h * shrink) / 32;
  shrink *= Math.min(Math.floor(pw) / pw, Math.floor(ph) / ph);
  return Math.ceil(Math.floor(w * shrink) / 32) * Math.ceil(Math.floor(h * shrink) / 32);
}

function anthropic(w: number, h: number, maxEdge: number, maxTokens: number): number {
  const s = Math.min(1, maxEdge / Math.max(w, h), Math.sqrt((maxTokens * 750) / (w * h)));
  return Math.min(maxTokens, Math.ceil((Math.floor(w * s) * Math.floor(h * s)) / 750));
}

/**
 * The tokens an image of `width` × `height` (as sent) counts as under `rule`; `detail` is the
 * OpenAI detail sent with it (`auto` or none gives the range from `low` to `high`).
 *
 * @example imageTokens({rule: 'openai_tiles', base: 85, tile: 170}, 1024, 1024, 'high') // {low: 765, high: 765}
 */
export function imageTokens(
  rule: ImageTokenRule,
  width: number,
  height: number,
  detail?: 'auto' | 'low' | 'high',
): TokenRange {
  const one = (t: number): TokenRange => ({ low: t, high: t });
  switch (rule.rule) {
    case 'openai_tiles': {
      const high = openAiTiles(width, height, rule.base, rule.tile);
      if (detail === 'low') return one(rule.base);
      return detail === 'high' ? one(high) : { low: rule.base, high };
    }
    case 'openai_patches':
      return one(Math.ceil(openAiPatches(width, height, rule.max_patches) * rule.multiplier));
    case 'anthropic':
      return one(anthropic(width, height, rule.max_long_edge, rule.max_tokens));
    case 'gemini':
      return one(
        width <= 384 && height <= 384
          ? rule.tokens
          : Math.ceil(width / 768) * Math.ceil(height / 768) * rule.tokens,
      );
    case 'fixed':
      return one(rule.tokens);
  }
}
