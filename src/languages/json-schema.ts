/** The language pack's JSON Schema, as committed in manifests/schema/language.schema.json. */
import path from 'node:path';
import { jsonSchemaText } from '../core/json-schema.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { LanguagePackSchema } from './schema.js';

export const LANGUAGE_SCHEMA_FILE = path.join(
  PACKAGE_ROOT,
  'manifests',
  'schema',
  'language.schema.json',
);

/** The text of language.schema.json generated from the zod schema. */
export function languageSchemaText(): string {
  return jsonSchemaText(
    LanguagePackSchema,
    'urn:stimkit:schema:language:v1',
    'stimkit language pack (stimkit.language v1)',
  );
}
