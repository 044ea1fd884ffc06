/** The rubric file's JSON Schema, as committed in manifests/schema/rubric.schema.json. */
import path from 'node:path';
import { jsonSchemaText } from '../core/json-schema.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { Rubric } from '../study/rubric-schema.js';

export const RUBRIC_SCHEMA_FILE = path.join(
  PACKAGE_ROOT,
  'manifests',
  'schema',
  'rubric.schema.json',
);

/** The text of rubric.schema.json generated from the zod schema. */
export function rubricSchemaText(): string {
  return jsonSchemaText(
    Rubric,
    'urn:stimkit:schema:rubric:v1',
    'stimkit audit rubric (stimkit.rubric v1)',
  );
}
