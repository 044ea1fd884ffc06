/**
 * The thinking factor (`thinking: [on, off]`): each trial planned once per level, `on` with
 * `sampling.thinking: true` and `off` with `false`, the level part of the trial id. Set on the
 * study it is the default of every block; a paradigm block, an instrument arm or the pressure
 * block may set its own, which overrides the study's for that block.
 */
import { z } from 'zod';

export const ThinkingFactor = z
  .array(z.enum(['on', 'off']))
  .min(1)
  .refine((l) => new Set(l).size === l.length, 'each level once: [on, off]');
export type ThinkingFactor = z.output<typeof ThinkingFactor>;

/** The description of a block's own factor, in the JSON Schema. */
export const BLOCK_THINKING_TEXT =
  "This block's thinking factor, overriding the study's: each of its trials planned once per level (on: sampling.thinking true; off: false); a sampling.thinking the block inherits from a broader level is overridden.";
