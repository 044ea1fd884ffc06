/**
 * The names of a batch file's numbered parts (batch/parts.ts writes them; the ledger names them in
 * what it says about an export, ledger/batch-exports.ts).
 */
import path from 'node:path';

const pad = (n: number) => String(n).padStart(4, '0');

/** `dir/in.jsonl` → `dir/in.part-0002-of-0003.jsonl`. */
export function partName(out: string, index: number, count: number): string {
  const ext = path.extname(out);
  const stem = ext ? out.slice(0, -ext.length) : out;
  return `${stem}.part-${pad(index)}-of-${pad(count)}${ext}`;
}

/** The files an export wrote: `out` itself, or its parts, first to last (`a.part-0001-of-0003.jsonl … a.part-0003-of-0003.jsonl`). */
export function partsText(out: string, parts: number): string {
  return parts <= 1 ? out : `${partName(out, 1, parts)} … ${partName(out, parts, parts)}`;
}
