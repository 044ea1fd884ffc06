/** The models file's JSON Schema, as committed in manifests/schema/models.schema.json. */
import path from 'node:path';
import { jsonSchemaText } from '../core/json-schema.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { ModelsFile } from './schema.js';

export const MODELS_SCHEMA_FILE = path.join(
  PACKAGE_ROOT,
  'manifests',
  'schema',
  'models.schema.json',
);

/** The text of models.schema.json generated from the zod schema. */
export function modelsSchemaText(): string {
  return jsonSchemaText(
    ModelsFile,
    'urn:stimkit:schema:models:v1',
    'stimkit models file (stimkit.models v1)',
  );
}
