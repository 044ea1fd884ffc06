/** Helpers for stimulus tests: write a data file into a temp folder, expect a rejection. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import { StimkitError, type Problem } from '../../src/core/errors.js';

/** Write `lines` (joined by newlines) to `dir/name` and return the path. */
export async function writeLines(dir: string, name: string, lines: string[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

/** Await `promise`, expect a StimkitError, return its problems. */
export async function rejection(
  promise: Promise<unknown>,
): Promise<{ error: StimkitError; problems: Problem[] }> {
  let caught: unknown;
  try {
    await promise;
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(StimkitError);
  const error = caught as StimkitError;
  return { error, problems: error.problems };
}

/** The one problem with `code` (fails if there is not exactly one). */
export function only(problems: Problem[], code: string): Problem {
  const hits = problems.filter((p) => p.code === code);
  expect(
    hits.map((p) => p.code),
    JSON.stringify(problems, null, 1),
  ).toEqual([code]);
  return hits[0]!;
}

/** A small valid base topics file (en + zh), as YAML lines; tests edit copies of it. */
export function baseTopics(): string[] {
  return [
    'format: stimkit.topics', // 1
    'version: 1', // 2
    'domain: test', // 3
    'poles: {plus: Pro-A, minus: Pro-B}', // 4
    'keys: {A: plus, B: minus}', // 5
    'languages:', // 6
    '  en: {provenance: {status: authored}}', // 7
    '  zh: {provenance: {status: authored}}', // 8
    'topics:', // 9
    '  - id: one', // 10
    '    key: A', // 11
    '    items:', // 12
    '      en:', // 13
    '        template: "It does more to {outcome_a} than to {outcome_b}."', // 14
    '        outcome_a: help', // 15
    '        outcome_b: harm', // 16
    '      zh:', // 17
    '        template: "{outcome_a}大于{outcome_b}。"', // 18
    '        outcome_a: 帮助', // 19
    '        outcome_b: 伤害', // 20
  ];
}
