/**
 * Helpers for characterization tests that pin a loader's output byte for byte: every problem in
 * order with every field, and the whole result, compared as JSON text so that key order counts.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { Problem } from '../../src/core/errors.js';
import { rejection } from './helpers.js';

/** Compare as JSON text, so that key order counts too. */
export function sameJson(got: unknown, want: unknown): void {
  expect(JSON.stringify(got, null, 1)).toBe(JSON.stringify(want, null, 1));
}

/** Every problem of the rejected `promise`, in order, with the folder left out of `file`. */
export async function problemsOf(promise: Promise<unknown>): Promise<Problem[]> {
  const { problems } = await rejection(promise);
  return problems.map((p) => ({ ...p, file: path.basename(p.file!) }));
}

/** A maker of error problems of `file`, keys in the order the loaders report them. */
export function problemIn(file: string) {
  return (
    line: number,
    field: string,
    rest: Omit<Problem, 'severity' | 'file' | 'line' | 'field'>,
  ): Problem => ({ severity: 'error', file, line, field, ...rest });
}

/** The sha256 (hex) of the bytes of `file`. */
export async function sha256Of(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}
