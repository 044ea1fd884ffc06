/**
 * A language the study asks for but its prompt cards, topics or wrapper pools lack is reported
 * once, at the study file's line and field, before any plan is expanded (not once per trial).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleStudy } from '../../src/bundle/bundle.js';
import { StimkitError, type Problem } from '../../src/core/errors.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import { FIXTURE_STUDY, writeFixtureProject } from './fixture.js';

let project: string;

beforeAll(async () => {
  project = path.join(await tempDir('stimkit-langs-'), 'project');
  await writeFixtureProject(project);
});

/** Write a variant of the fixture study and return its path and text. */
async function study(
  name: string,
  patch: Record<string, unknown>,
): Promise<{ file: string; text: string }> {
  const file = path.join(project, `${name}.study.yaml`);
  await writeFile(file, stringify({ ...FIXTURE_STUDY, ...patch }));
  return { file, text: await readFile(file, 'utf8') };
}

/** 1-based line of the first line of `text` equal to `line`. */
const lineNo = (text: string, line: string) => text.split('\n').indexOf(line) + 1;

async function problems(file: string): Promise<Problem[]> {
  const err = await bundleStudy(file, { dryRun: true }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StimkitError);
  return (err as StimkitError).problems;
}

describe('languages the stimuli lack', () => {
  it('a study language without prompt cards is one problem at the study line, naming the cards it lacks', async () => {
    const { file, text } = await study('fr', { languages: ['en', 'fr'] });
    const p = await problems(file);
    expect(p).toHaveLength(1);
    expect(p[0]).toMatchObject({
      code: 'E_PROMPTS_NO_LANGUAGE',
      file,
      field: 'languages[1]',
      line: lineNo(text, '  - fr'),
      got: 'fr',
    });
    expect(p[0]!.message).toContain(
      'describe, comment-image, comment-text, abstraction, narrative',
    );
    expect(p[0]!.message).toContain('prompts.yaml');
    const cli = await runCli(['bundle', file, '--dry-run']);
    expect(cli.code).toBe(1);
    expect(cli.stderr.match(/E_PROMPTS_NO_LANGUAGE/g)).toHaveLength(1);
    expect(cli.stderr).toContain(`${file}:${lineNo(text, '  - fr')}: languages[1]`);
  });

  it('a paradigm language is reported at the paradigm field; an unknown prompt card at its prompt field', async () => {
    const paradigms = {
      ...FIXTURE_STUDY.paradigms,
      describe: { entries: { roles: ['core'] }, languages: ['en', 'de'] },
      narrative: { entries: { roles: ['core'] }, prompt: 'no-such-card' },
    };
    const { file } = await study('paradigm-langs', { paradigms, expect: [] });
    const p = await problems(file);
    expect(p.map((x) => `${x.code} ${x.field}`)).toEqual([
      'E_PROMPTS_NO_LANGUAGE paradigms.describe.languages[1]',
      'E_PROMPTS_UNKNOWN_PARADIGM paradigms.narrative.prompt',
    ]);
    expect(p.every((x) => x.file === file && typeof x.line === 'number')).toBe(true);
  });

  it('an instrument language without topics or a wrapper pool is reported once each at the arm', async () => {
    const instrument = {
      ...FIXTURE_STUDY.instrument,
      arms: [{ id: 'main', languages: ['en', 'fr'], iterations: 3 }],
    };
    const { file, text } = await study('arm-fr', { instrument, expect: [] });
    const p = await problems(file);
    const line =
      text
        .split('\n')
        .findIndex(
          (l, i, all) => l.trim() === '- fr' && all.slice(0, i).some((x) => x.includes('arms:')),
        ) + 1;
    expect(p.map((x) => `${x.code} ${x.field} ${x.line}`)).toEqual([
      `E_PAIRS_UNKNOWN_LANGUAGE instrument.arms[0].languages[1] ${line}`,
      `E_WRAPPERS_NO_POOL instrument.arms[0].languages[1] ${line}`,
    ]);
    expect(p[0]!.message).toContain('geopolitics.topics.yaml');
    expect(p[1]!.message).toContain('wrappers.yaml');
  });

  it('a likely typo of a language the stimuli have is named in the fix (zg for zh); a new language is not', async () => {
    const instrument = {
      ...FIXTURE_STUDY.instrument,
      arms: [{ id: 'main', languages: ['en', 'zg'], iterations: 3 }],
    };
    const { file } = await study('typo', { languages: ['en', 'zg'], instrument, expect: [] });
    const p = await problems(file);
    expect(p.map((x) => x.code)).toEqual([
      'E_PROMPTS_NO_LANGUAGE',
      'E_PAIRS_UNKNOWN_LANGUAGE',
      'E_WRAPPERS_NO_POOL',
    ]);
    for (const x of p) expect(x.fix).toMatch(/^use zh here \(did you mean zh\?\), or add (a )?zg /);
    const [fr] = await problems((await study('fr-fix', { languages: ['en', 'fr'] })).file);
    expect(fr!.fix).toMatch(/^add fr texts/);
  });
});
