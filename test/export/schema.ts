/**
 * Validators for the files of an Inspect `.eval`, compiled from the vendored Inspect OpenAPI
 * description (fixtures/inspect-openapi.json; fixtures/README.md says where it comes from). Every
 * object is closed (`additionalProperties: false` where Inspect leaves it open), so a field
 * Inspect does not define fails.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { unzipSync } from 'fflate';

const DOC = JSON.parse(
  readFileSync(new URL('./fixtures/inspect-openapi.json', import.meta.url), 'utf8'),
) as { components: { schemas: Record<string, unknown> } };

function close(node: unknown): void {
  if (Array.isArray(node)) node.forEach(close);
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (o.properties && o.additionalProperties === undefined) o.additionalProperties = false;
    Object.values(o).forEach(close);
  }
}

let ajv: Ajv2020 | null = null;
/** Each validator compiled once: compiling one takes about 0.1 s, and a test checks each sample. */
const compiled = new Map<string, ValidateFunction>();

/** A validator of `components/schemas/<name>`, or of a list of it (`[name]`). */
export function inspectValidator(name: string, list = false): ValidateFunction {
  if (!ajv) {
    const doc = structuredClone(DOC);
    close(doc.components.schemas);
    ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'inspect', components: doc.components });
  }
  const key = list ? `[${name}]` : name;
  let v = compiled.get(key);
  if (!v) {
    const ref = { $ref: `inspect#/components/schemas/${name}` };
    v = ajv.compile(list ? { type: 'array', items: ref } : ref);
    compiled.set(key, v);
  }
  return v;
}

/** The entries of a ZIP file, in the archive's order, each parsed as JSON. */
export function unzipJson(bytes: Uint8Array): Map<string, any> {
  const out = new Map<string, any>();
  for (const [name, data] of Object.entries(unzipSync(bytes)))
    out.set(name, JSON.parse(new TextDecoder().decode(data)));
  return out;
}
