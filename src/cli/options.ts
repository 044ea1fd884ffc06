/**
 * A command's parsed flags, checked at the door against the command's zod schema: commander has
 * parsed each value (flags.ts), and the schema says what type each flag has, so a command reads
 * typed options and casts none. A value of the wrong type (a flag parser that returned something
 * else) is a usage error naming the flag, what it expects and what it got.
 */
import { z } from 'zod';
import { describeValue, EXIT, StimkitError } from '../core/errors.js';

/** Schemas of the common flag shapes. */
export const flag = {
  /** A text value (`--out FILE`), absent when not given. */
  text: z.string().optional(),
  /** A comma-separated list (`--model a,b`), absent when not given. */
  list: z.array(z.string()).optional(),
  /** A whole number (`--jobs 4`), absent when not given. */
  int: z.number().int().optional(),
  /** A number (`--budget 0.5`), absent when not given. */
  number: z.number().optional(),
  /** A switch (`--dry-run`), absent when not given. */
  on: z.boolean().optional(),
} as const;

/** `--dry-run` from `dryRun`. */
function flagName(key: PropertyKey | undefined): string {
  return `--${String(key ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * `opts` (commander's parsed flags) as `schema` types them; E_USAGE (exit 2) naming the flag when
 * a value is not of its type.
 */
export function parseOptions<S extends z.ZodType>(
  schema: S,
  opts: Record<string, unknown>,
): z.output<S> {
  const result = schema.safeParse(opts);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = flagName(issue.path[0]);
  const expected =
    issue.code === 'invalid_type'
      ? issue.expected
      : issue.code === 'invalid_value'
        ? `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`
        : issue.message;
  const got = describeValue(opts[String(issue.path[0])]);
  const fix = `give ${name} as ${expected} (see --help)`;
  throw new StimkitError('E_USAGE', `${name}: expected ${expected}, got ${got}`, {
    exitCode: EXIT.usage,
    fix,
    problems: [
      {
        code: 'E_USAGE',
        severity: 'error',
        field: name,
        message: `${name} has a value of the wrong type`,
        expected,
        got,
        fix,
      },
    ],
  });
}
