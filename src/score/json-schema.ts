/** JSON Schemas of the scores artifact, as committed in manifests/schema/ (generated from the zod schemas). */
import path from 'node:path';
import { jsonSchemaText } from '../core/json-schema.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { ScoreLine, ScoresHeader } from './format.js';

const SCORES_SCHEMA_FILE = path.join(PACKAGE_ROOT, 'manifests', 'schema', 'scores.schema.json');
const SCORE_LINE_SCHEMA_FILE = path.join(
  PACKAGE_ROOT,
  'manifests',
  'schema',
  'scores-line.schema.json',
);

/** The schema files of the score stage with their generated text. */
export function scoreSchemaFiles(): { file: string; text: string }[] {
  return [
    {
      file: SCORES_SCHEMA_FILE,
      text: jsonSchemaText(
        ScoresHeader,
        'urn:stimkit:schema:scores:v1',
        'stimkit scores header (score.json, stimkit.scores v1)',
      ),
    },
    {
      file: SCORE_LINE_SCHEMA_FILE,
      text: jsonSchemaText(
        ScoreLine,
        'urn:stimkit:schema:scores-line:v1',
        'one line of scores.jsonl (stimkit.scores v1)',
      ),
    },
  ];
}
