/** The study file's JSON Schema, as committed in manifests/schema/study.schema.json. */
import path from 'node:path';
import { jsonSchemaText } from '../core/json-schema.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { Study } from './schema.js';

export const STUDY_SCHEMA_FILE = path.join(
  PACKAGE_ROOT,
  'manifests',
  'schema',
  'study.schema.json',
);

/** The text of study.schema.json generated from the zod schema. */
export function studySchemaText(): string {
  return jsonSchemaText(
    Study,
    'urn:stimkit:schema:study:v1',
    'stimkit study design (stimkit.study v1)',
  );
}
