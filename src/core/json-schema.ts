/**
 * JSON Schema export of zod schemas, for editors and for people reading stimkit files from other
 * languages. The zod schema stays the source of truth; tests check the committed files are current.
 */
import { z } from 'zod';

/** JSON Schema (draft 2020-12) text of the input side of `schema`, with an `$id` and title. */
export function jsonSchemaText(schema: z.ZodType, id: string, title: string): string {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  const { $schema, ...rest } = json;
  return `${JSON.stringify({ $schema, $id: id, title, ...rest }, null, 2)}\n`;
}
