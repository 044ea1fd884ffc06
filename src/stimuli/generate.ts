/**
 * Regenerate the stimulus files derived from others: the JSON Schemas in manifests/schema/ (from
 * the zod schemas) and the zh-Hant drafts (from the zh files, with OpenCC). Run:
 *
 *   node --import tsx src/stimuli/generate.ts
 *
 * Tests fail while a committed file differs from what this would write.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeIfChanged } from '../core/fsio.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { stimuliSchemaFiles } from './json-schemas.js';
import { generateZhHantDrafts } from './opencc.js';

/** Every derived file with the text it should have. */
export async function derivedStimulusFiles(): Promise<Array<{ file: string; text: string }>> {
  return [
    ...stimuliSchemaFiles(),
    ...(await generateZhHantDrafts(path.join(PACKAGE_ROOT, 'manifests'))),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const { file, text } of await derivedStimulusFiles()) {
    const written = await writeIfChanged(file, text);
    process.stderr.write(
      `${written ? 'wrote' : 'unchanged'} ${path.relative(process.cwd(), file)}\n`,
    );
  }
}
