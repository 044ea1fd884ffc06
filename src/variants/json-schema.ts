/** The recipe's JSON Schema, as committed in manifests/schema/recipe.schema.json. */
import path from 'node:path';
import { jsonSchemaText } from '../core/json-schema.js';
import { PACKAGE_ROOT } from '../core/tool.js';
import { Recipe } from './recipe.js';

export const RECIPE_SCHEMA_FILE = path.join(
  PACKAGE_ROOT,
  'manifests',
  'schema',
  'recipe.schema.json',
);

/** The text of recipe.schema.json generated from the zod schema. */
export function recipeSchemaText(): string {
  return jsonSchemaText(
    Recipe,
    'urn:stimkit:schema:recipe:v1',
    'stimkit variants recipe (stimkit.recipe v1)',
  );
}
