/** The entries manifest's JSON Schema, as committed in manifests/schema/entries.schema.json. */
import path from 'node:path';
import { jsonSchemaText } from '../core/json-schema.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { EntriesManifest } from './schema.js';

export const ENTRIES_SCHEMA_FILE = path.join(
  PACKAGE_ROOT,
  'manifests',
  'schema',
  'entries.schema.json',
);

/** The text of entries.schema.json generated from the zod schema. */
export function entriesSchemaText(): string {
  return jsonSchemaText(
    EntriesManifest,
    'urn:stimkit:schema:entries:v1',
    'stimkit entries manifest (stimkit.entries v1)',
  );
}
