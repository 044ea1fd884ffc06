/**
 * Flags are checked at the door against each command's schema: a value of the wrong type (what a
 * flag parser would have to get wrong) is E_USAGE (exit 2) naming the flag, what it expects and
 * what it got, before the command does anything.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flag, parseOptions } from '../../src/cli/options.js';
import { runCommand } from '../../src/commands/run.js';
import { analyzeCommand } from '../../src/commands/analyze.js';
import { EXIT, StimkitError } from '../../src/core/errors.js';
import { stimkitRejection } from '../helpers/errors.js';

const io = { stdout: () => undefined, stderr: () => undefined };

describe('command flags checked at the door', () => {
  it('names the flag in its command-line spelling, what it expects and what it got', () => {
    const schema = z.looseObject({ maxAttempts: z.number().int(), dryRun: flag.on });
    expect(parseOptions(schema, { maxAttempts: 8, other: 'kept' })).toEqual({
      maxAttempts: 8,
      other: 'kept',
    });
    let err: unknown;
    try {
      parseOptions(schema, { maxAttempts: '8' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StimkitError);
    const e = err as StimkitError;
    expect(e.code).toBe('E_USAGE');
    expect(e.exitCode).toBe(EXIT.usage);
    expect(e.problems[0]).toMatchObject({ field: '--max-attempts', expected: 'number' });
    expect(e.problems[0]!.got).toContain('8');
    expect(e.problems[0]!.fix).toMatch(/--max-attempts/);
  });

  it('run refuses a --limit that is not a number before it reads the bundle', async () => {
    const err = await stimkitRejection(
      runCommand.run!(['no-such-bundle'], { limit: '5', maxAttempts: 8 }, io),
    );
    expect(err.code).toBe('E_USAGE');
    expect(err.problems[0]!.field).toBe('--limit');
  });

  it('analyze refuses a --correction outside its choices', async () => {
    const err = await stimkitRejection(
      analyzeCommand.run!(
        ['logit', 'no-such.csv'],
        {
          outcome: 'y',
          predictors: ['x'],
          cluster: 'c',
          correction: 'HC3',
          bootWeights: 'rademacher',
          bootReps: 9999,
          bootSeed: 1,
          weights: 'none',
        },
        io,
      ),
    );
    expect(err.code).toBe('E_USAGE');
    expect(err.problems[0]).toMatchObject({ field: '--correction' });
    expect(err.problems[0]!.expected).toMatch(/statsmodels/);
  });
});
