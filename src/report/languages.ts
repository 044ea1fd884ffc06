/**
 * The study's languages by name: the `name:` fields of the data files the scored bundle carries
 * (the prompt cards' `languages`, the wrapper pools'), e.g. `zh` "Chinese (Simplified)". Read
 * from the bundle score.json records (or `report --bundle`), each file checked against the bag's
 * `manifest-sha256.txt`; without a usable bundle, or for a language no file names, the page shows
 * the code alone and says why once.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { sha256 } from '../core/fsio.js';
import type { ReportContext } from './types.js';

/** The language map of a data file: `{code: {name?}}` (other fields are not read here). */
const Named = z.record(z.string(), z.looseObject({ name: z.string().optional() }));
const PromptsFile = z.looseObject({ languages: Named.optional() });
const WrappersFile = z.looseObject({ pools: Named.optional() });

/** The files read, in order, and the field whose entries name languages. */
const SOURCES = [
  { file: 'data/prompts.json', schema: PromptsFile, field: 'languages' },
  { file: 'data/wrappers.json', schema: WrappersFile, field: 'pools' },
] as const;

/** Language names by code, and why there are none when there are none. */
export interface LanguageNames {
  names: Map<string, string>;
  note: string | null;
}

/** A payload file of the bag, when the manifest lists it with these bytes' sha256. */
async function checkedFile(dir: string, rel: string, manifest: string): Promise<string | null> {
  const line = manifest.split('\n').find((l) => l.endsWith(`  ${rel}`) || l.endsWith(` ${rel}`));
  if (!line) return null;
  const text = await readFile(path.join(dir, rel), 'utf8').catch(() => null);
  return text !== null && sha256(text) === line.split(/\s+/)[0] ? text : null;
}

/** The names the scored bundle's data files give the study's languages (memoized per report). */
export function languageNames(ctx: ReportContext): Promise<LanguageNames> {
  return ctx.memo('language-names', async () => {
    const { bundle, note } = await ctx.bundle();
    if (!bundle)
      return { names: new Map(), note: `languages are shown by code: ${note ?? 'no bundle'}` };
    const manifest = await readFile(path.join(bundle.dir, 'manifest-sha256.txt'), 'utf8');
    const names = new Map<string, string>();
    for (const s of SOURCES) {
      const text = await checkedFile(bundle.dir, s.file, manifest);
      if (text === null) continue;
      const parsed = s.schema.safeParse(JSON.parse(text));
      const map = parsed.success ? (parsed.data as Record<string, unknown>)[s.field] : undefined;
      for (const [code, v] of Object.entries((map ?? {}) as z.infer<typeof Named>))
        if (v.name && !names.has(code)) names.set(code, v.name);
    }
    return { names, note: null };
  });
}

/** "Chinese (Simplified) (zh)", or the code alone when no data file names it. */
export function languageLabel(names: LanguageNames, code: string): string {
  const name = names.names.get(code);
  return name ? `${name} (${code})` : code;
}
