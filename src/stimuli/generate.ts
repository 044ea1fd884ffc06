/**
 * The stimulus files derived from others: the JSON Schemas in manifests/schema/ (from the zod
 * schemas) and the zh-Hant drafts (from the zh files, with OpenCC). `npm run stimuli`
 * (scripts/stimuli.ts) writes them; tests fail while a committed file differs.
 */
import path from 'node:path';
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
