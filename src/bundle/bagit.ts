/**
 * BagIt 1.0 (RFC 8493) text formats: `bagit.txt`, `bag-info.txt`, payload and tag manifests,
 * Payload-Oxum, and the percent-encoding of paths in manifests. Pure functions; the writer is in
 * `write-bag.ts`, the validator in `src/verify/`.
 */

/** The bag declaration, byte for byte (RFC 8493 §2.1.1). */
export const BAGIT_TXT = 'BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n';

/** One manifest line: a file path relative to the bag root (forward slashes) and its hex digest. */
export interface ManifestLine {
  path: string;
  digest: string;
}

/**
 * Encode a path for a manifest line: only CR, LF and `%` are percent-encoded (RFC 8493 §2.1.3).
 */
export function encodeManifestPath(p: string): string {
  return p.replace(
    /[%\r\n]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** Decode a manifest path: `%0A`, `%0D` and `%25` (any case) back to their characters. */
export function decodeManifestPath(p: string): string {
  return p.replace(/%(0[aAdD]|25)/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Byte order of the UTF-8 encodings, so that every language sorts manifest lines the same way. */
function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Manifest text: `<digest>  <path>` lines (two spaces, like sha256sum), sorted by path bytes. */
export function formatManifest(lines: ManifestLine[]): string {
  return [...lines]
    .sort((a, b) => compareUtf8(a.path, b.path))
    .map((l) => `${l.digest}  ${encodeManifestPath(l.path)}\n`)
    .join('');
}

/** A manifest line that could not be read. */
export interface ManifestSyntaxError {
  line: number;
  text: string;
}

/** Parse a manifest: `<digest><whitespace><path>` per line; empty lines are ignored. */
export function parseManifest(text: string): {
  lines: ManifestLine[];
  errors: ManifestSyntaxError[];
} {
  const lines: ManifestLine[] = [];
  const errors: ManifestSyntaxError[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    const m = /^([0-9A-Fa-f]+)[ \t]+(\S.*)$/.exec(raw);
    if (!m) errors.push({ line: i + 1, text: raw });
    else
      lines.push({
        digest: m[1]!.toLowerCase(),
        path: decodeManifestPath(m[2]!.replace(/^\*/, '')),
      });
  });
  return { lines, errors };
}

/** Payload-Oxum: `<total octets>.<number of files>`. */
export function payloadOxum(octets: number, files: number): string {
  return `${octets}.${files}`;
}

/** Parse Payload-Oxum, or null when malformed. */
export function parseOxum(value: string): { octets: number; files: number } | null {
  const m = /^(\d+)\.(\d+)$/.exec(value.trim());
  return m ? { octets: Number(m[1]), files: Number(m[2]) } : null;
}

/** Bag-Size: an approximate human size in decimal units (`1.3 MB`). */
export function bagSize(octets: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = octets;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return u === 0 ? `${octets} B` : `${v.toFixed(1)} ${units[u]}`;
}

/** `bag-info.txt`: `Label: value` lines in the given order; values are kept to one line. */
export function formatBagInfo(fields: Array<[string, string]>): string {
  return fields
    .map(([label, value]) => {
      if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(label))
        throw new Error(`bad bag-info label ${JSON.stringify(label)}`);
      return `${label}: ${value.replace(/\s+/g, ' ').trim()}\n`;
    })
    .join('');
}

/** Parse `bag-info.txt` (or `bagit.txt`): labels may repeat; continuation lines start with whitespace. */
export function parseBagInfo(text: string): {
  fields: Array<[string, string]>;
  errors: ManifestSyntaxError[];
} {
  const fields: Array<[string, string]> = [];
  const errors: ManifestSyntaxError[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    if (raw === '') return;
    if (/^[ \t]/.test(raw) && fields.length > 0) {
      const last = fields[fields.length - 1]!;
      last[1] = `${last[1]} ${raw.trim()}`;
      return;
    }
    const m = /^([^:\s][^:]*):(.*)$/.exec(raw);
    if (!m) errors.push({ line: i + 1, text: raw });
    else fields.push([m[1]!.trim(), m[2]!.trim()]);
  });
  return { fields, errors };
}
