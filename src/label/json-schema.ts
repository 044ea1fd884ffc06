/** The validation sample's JSON Schema, as committed in manifests/schema/label-sample.schema.json. */
import path from 'node:path';
import { jsonSchemaText } from '../core/json-schema.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { LabelSample } from './sample-schema.js';

export const LABEL_SAMPLE_SCHEMA_FILE = path.join(
  PACKAGE_ROOT,
  'manifests',
  'schema',
  'label-sample.schema.json',
);

/** The text of label-sample.schema.json generated from the zod schema. */
export function labelSampleSchemaText(): string {
  return jsonSchemaText(
    LabelSample,
    'urn:stimkit:schema:label-sample:v1',
    'stimkit validation sample for human labelling (stimkit.label-sample v1)',
  );
}
