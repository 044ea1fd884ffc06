/**
 * `npm run schemas`: regenerate the committed JSON Schema files in manifests/schema/ from the zod
 * schemas (the source of truth). Tests fail when a committed file is stale.
 */
import { writeIfChanged } from '../src/core/fsio.js';
import { ENTRIES_SCHEMA_FILE, entriesSchemaText } from '../src/ingest/json-schema.js';
import { scoreSchemaFiles } from '../src/score/json-schema.js';
import { LABEL_SAMPLE_SCHEMA_FILE, labelSampleSchemaText } from '../src/label/json-schema.js';
import { MODELS_SCHEMA_FILE, modelsSchemaText } from '../src/models/json-schema.js';
import { stimuliSchemaFiles } from '../src/stimuli/json-schemas.js';
import { STUDY_SCHEMA_FILE, studySchemaText } from '../src/study/json-schema.js';
import { RECIPE_SCHEMA_FILE, recipeSchemaText } from '../src/variants/json-schema.js';
import { RUBRIC_SCHEMA_FILE, rubricSchemaText } from '../src/audit/json-schema.js';
import { LANGUAGE_SCHEMA_FILE, languageSchemaText } from '../src/languages/json-schema.js';

const files = [
  { file: ENTRIES_SCHEMA_FILE, text: entriesSchemaText() },
  ...stimuliSchemaFiles(),
  { file: RECIPE_SCHEMA_FILE, text: recipeSchemaText() },
  { file: STUDY_SCHEMA_FILE, text: studySchemaText() },
  ...scoreSchemaFiles(),
  { file: MODELS_SCHEMA_FILE, text: modelsSchemaText() },
  { file: RUBRIC_SCHEMA_FILE, text: rubricSchemaText() },
  { file: LABEL_SAMPLE_SCHEMA_FILE, text: labelSampleSchemaText() },
  { file: LANGUAGE_SCHEMA_FILE, text: languageSchemaText() },
];
for (const { file, text } of files) {
  const written = await writeIfChanged(file, text);
  process.stderr.write(`${written ? 'wrote' : 'unchanged'} ${file}\n`);
}
