/**
 * Validators for the files of an Inspect `.eval`, compiled from the vendored Inspect OpenAPI
 * description (fixtures/inspect-openapi.json; fixtures/README.md says where it comes from). Every
 * object is closed (`additionalProperties: false` where Inspect leaves it open), so a field
 * Inspect does not define fails.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { crc32, inflateRawSync } from 'node:zlib';

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

/**
 * The entries of a ZIP file, in the archive's order, as bytes: read from its central directory and
 * inflated by zlib — an inflater independent of the writer's (fflate), the one Inspect's Python
 * reader uses — each checked against its CRC-32 and size. Throws on anything else.
 */
export function unzipEntries(bytes: Uint8Array): Map<string, Buffer> {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = b.length - 22; // the end-of-central-directory record (no archive comment)
  if (b.readUInt32LE(end) !== 0x06054b50) throw new Error('no end of central directory');
  const out = new Map<string, Buffer>();
  let at = b.readUInt32LE(end + 16);
  for (let n = b.readUInt16LE(end + 10); n > 0; n--) {
    if (b.readUInt32LE(at) !== 0x02014b50) throw new Error(`no central header at ${at}`);
    const [method, crc, packed, size] = [10, 16, 20, 24].map((o) =>
      o === 10 ? b.readUInt16LE(at + o) : b.readUInt32LE(at + o),
    ) as [number, number, number, number];
    const nameLen = b.readUInt16LE(at + 28);
    const skip = nameLen + b.readUInt16LE(at + 30) + b.readUInt16LE(at + 32);
    const name = b.toString('utf8', at + 46, at + 46 + nameLen);
    const local = b.readUInt32LE(at + 42);
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const raw = b.subarray(start, start + packed);
    const data = method === 8 ? inflateRawSync(raw) : method === 0 ? raw : null;
    if (!data || data.length !== size || crc32(data) !== crc)
      throw new Error(`${name}: method ${method}, size or CRC-32 does not match`);
    out.set(name, data);
    at += 46 + skip;
  }
  return out;
}

/** The entries of a ZIP file, in the archive's order, each parsed as JSON. */
export function unzipJson(bytes: Uint8Array): Map<string, any> {
  const out = new Map<string, any>();
  const text = new TextDecoder();
  for (const [name, data] of unzipEntries(bytes)) out.set(name, JSON.parse(text.decode(data)));
  return out;
}
