/** `stimkit translate <file> --opencc tw|hk|cn --out FILE [--from TAG] [--lang TAG]` */
import { EXIT, StimkitError } from '../core/errors.js';
import { relPosix } from '../core/fsio.js';
import {
  OPENCC_TARGETS,
  translateFile,
  type OpenccTarget,
  type TranslateRun,
} from '../stimuli/translate.js';
import type { CommandSpec } from './index.js';
import { z } from 'zod';
import { flag, parseOptions } from '../cli/options.js';

/** The flags this command reads, as commander parses them. */
const TranslateFlags = z.looseObject({
  opencc: z.string(),
  out: z.string(),
  from: flag.text,
  lang: flag.text,
});

function isOpenccTarget(v: string): v is OpenccTarget {
  return Object.hasOwn(OPENCC_TARGETS, v);
}

function human(r: TranslateRun): string {
  const lines = [
    `wrote ${relPosix(process.cwd(), r.out)} (sha256 ${r.sha256}): ${r.kind} draft in ${r.to}, ${r.texts} text(s) converted from ${r.from} with OpenCC ${r.opencc.from} → ${r.opencc.to}`,
    `every text is drafted-pending-adjudication; the draft extends ${r.extends}${r.extends.startsWith('stimkit:') ? '' : ` (${relPosix(process.cwd(), r.file)})`}`,
  ];
  if (r.skipped.length > 0)
    lines.push(
      `note: no ${r.from} text to convert for ${r.skipped.join(', ')}: the draft has none for them`,
    );
  return lines.join('\n');
}

export const translateCommand: CommandSpec = {
  name: 'translate',
  description:
    'a Traditional (Taiwan, Hong Kong) or Simplified Chinese draft of a topics, wrappers or prompts file (OpenCC), extending it',
  configure: (cmd) =>
    cmd
      .argument('<file>', 'topics, wrappers or prompts file (YAML or JSON, or stimkit:<name>)')
      .requiredOption(
        '--opencc <target>',
        'tw (Taiwan Traditional), hk (Hong Kong Traditional) or cn (Simplified)',
      )
      .requiredOption('--out <file>', 'the draft to write (a file that extends <file>)')
      .option(
        '--from <tag>',
        "the language to convert (default: the file's one zh or zh-Hant language)",
      )
      .option('--lang <tag>', 'the tag of the added language (default: zh-Hant, zh-Hant-HK or zh)'),
  run: async ([file], flags) => {
    const opts = parseOptions(TranslateFlags, flags);
    const target = opts.opencc;
    if (!isOpenccTarget(target))
      throw StimkitError.usage(
        'E_TRANSLATE_TARGET',
        `--opencc: unknown target "${target}"`,
        `use one of ${Object.keys(OPENCC_TARGETS).join(', ')}`,
      );
    const r = await translateFile(String(file), {
      target,
      out: opts.out,
      from: opts.from,
      lang: opts.lang,
    });
    const summary = {
      ok: true,
      command: 'translate',
      ...r,
      file: relPosix(process.cwd(), r.file),
      out: relPosix(process.cwd(), r.out),
    };
    return { summary, human: human(r), exitCode: EXIT.ok };
  },
};
