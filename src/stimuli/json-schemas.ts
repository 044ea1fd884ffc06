/**
 * The JSON Schema files of the stimulus formats, generated from their zod schemas (the source of
 * truth) and committed in manifests/schema/ for editors and other languages. A test checks that
 * the committed files are current; `npm run stimuli` rewrites them.
 */
import path from 'node:path';
import type { z } from 'zod';
import { jsonSchemaText } from '../core/json-schema.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { PressureFileInput } from './pressure-schema.js';
import { PromptsFileInput } from './prompts-schema.js';
import { TopicsFileInput } from './topics-schema.js';
import { WrappersFileInput } from './wrappers-schema.js';

const SCHEMA_DIR = path.join(PACKAGE_ROOT, 'manifests', 'schema');

const specs: Array<[string, z.ZodType, string]> = [
  ['topics.schema.json', TopicsFileInput, 'stimkit topics file (stimkit.topics v1)'],
  ['wrappers.schema.json', WrappersFileInput, 'stimkit wrapper pools (stimkit.wrappers v1)'],
  ['prompts.schema.json', PromptsFileInput, 'stimkit prompt cards (stimkit.prompts v1)'],
  ['pressure.schema.json', PressureFileInput, 'stimkit pressure follow-ups (stimkit.pressure v1)'],
];

/** Each stimulus JSON Schema file with its generated text. */
export function stimuliSchemaFiles(): Array<{ file: string; text: string }> {
  return specs.map(([name, schema, title]) => ({
    file: path.join(SCHEMA_DIR, name),
    text: jsonSchemaText(
      schema,
      `urn:stimkit:schema:${name.replace(/\.schema\.json$/, '')}:v1`,
      title,
    ),
  }));
}
