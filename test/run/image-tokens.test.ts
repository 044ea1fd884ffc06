// Image token rules against the worked examples the vendors publish (cited in
// src/run/image-tokens.ts): OpenAI's tile and patch examples, Anthropic's table of image sizes,
// Gemini's 258-token rule.
import { describe, expect, it } from 'vitest';
import { ImageTokenRule } from '../../src/models/price.js';
import { imageTokens, openAiPatches } from '../../src/run/image-tokens.js';

const rule = (r: unknown) => ImageTokenRule.parse(r);

describe('imageTokens', () => {
  it('OpenAI tiles: 1024 × 1024 high is 765, 2048 × 4096 high is 1105, low is 85, auto spans both', () => {
    const tiles = rule({ rule: 'openai_tiles' });
    expect(imageTokens(tiles, 1024, 1024, 'high')).toEqual({ low: 765, high: 765 });
    expect(imageTokens(tiles, 2048, 4096, 'high')).toEqual({ low: 1105, high: 1105 });
    expect(imageTokens(tiles, 4096, 8192, 'low')).toEqual({ low: 85, high: 85 });
    expect(imageTokens(tiles, 1024, 1024)).toEqual({ low: 85, high: 765 });
    expect(
      imageTokens(rule({ rule: 'openai_tiles', base: 2833, tile: 5667 }), 512, 512, 'high').high,
    ).toBe(2833 + 5667);
  });

  it('OpenAI patches: 1024 × 1024 is 1024 patches, 1800 × 2400 is 1452, times the multiplier', () => {
    expect(openAiPatches(1024, 1024, 1536)).toBe(1024);
    expect(openAiPatches(1800, 2400, 1536)).toBe(1452);
    expect(imageTokens(rule({ rule: 'openai_patches', multiplier: 1.62 }), 1024, 1024).high).toBe(
      Math.ceil(1024 * 1.62),
    );
  });

  it("Anthropic: width × height / 750 (200² ≈ 54, 1000² ≈ 1334, 1092² ≈ 1590), capped after the API's downscale", () => {
    const a = rule({ rule: 'anthropic' });
    expect(imageTokens(a, 200, 200).high).toBe(54);
    expect(imageTokens(a, 1000, 1000).high).toBe(1334);
    expect(imageTokens(a, 1092, 1092).high).toBe(1590);
    expect(imageTokens(a, 4000, 3000).high).toBeLessThanOrEqual(1600);
    expect(imageTokens(a, 4000, 3000).high).toBeGreaterThan(1550);
  });

  it('Gemini: 258 up to 384 × 384, then 258 per 768-px tile; fixed counts stay fixed', () => {
    const g = rule({ rule: 'gemini' });
    expect(imageTokens(g, 384, 384).high).toBe(258);
    expect(imageTokens(g, 600, 400).high).toBe(258);
    expect(imageTokens(g, 1024, 768).high).toBe(516);
    expect(imageTokens(rule({ rule: 'fixed', tokens: 1120 }), 4000, 4000)).toEqual({
      low: 1120,
      high: 1120,
    });
  });
});
