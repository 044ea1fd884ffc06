/**
 * `compare --out DIR`: the comparison as CSV tables beside `compare.json` (written last; its
 * presence means the folder is complete). The folder is replaced whole (core/out-folder.ts).
 */
import path from 'node:path';
import { csvText, type Cell } from '../core/csv.js';
import { relPosix, sha256, writeFileAtomic } from '../core/fsio.js';
import { artifactJson } from '../core/json.js';
import { headeredFolder, writeOutFolder } from '../core/out-folder.js';
import { COMPARE_COLUMNS } from './columns.js';
import { COMPARE_FORMAT, type CompareResult } from './format.js';

const COMPARE_FILES = {
  header: 'compare.json',
  changed: 'changed.csv',
  unpaired: 'unpaired.csv',
  transitions: 'transitions.csv',
  mcnemar: 'mcnemar.csv',
} as const;

const SPEC = headeredFolder({
  command: 'compare',
  header: { file: COMPARE_FILES.header, format: COMPARE_FORMAT },
  names: Object.values(COMPARE_FILES),
});

const KEY = ['trial', 'model', 'paradigm', 'language'] as const;
const ROUTES = ['route_a', 'route_b'] as const;
const MCNEMAR = ['positive', 'n', 'excluded', 'a', 'b', 'c', 'd', 'p_exact', 'p_holm', 'reason'];

/** The CSV tables of a comparison: file name → header and rows. */
function compareTables(r: CompareResult): Array<[string, string[], Cell[][]]> {
  const cols = COMPARE_COLUMNS.map((c) => c.id);
  const changedHeader = [
    ...KEY,
    ...ROUTES,
    'changed',
    ...cols.flatMap((c) => [`${c}_a`, `${c}_b`]),
  ];
  const changed = r.changed.map((t) => [
    ...KEY.map((k) => t[k]),
    ...ROUTES.map((k) => t[k]),
    Object.keys(t.columns).join('|'),
    ...cols.flatMap((c) => [t.columns[c]?.a ?? null, t.columns[c]?.b ?? null]),
  ]);
  const unpaired = [
    ...r.only_a.map((t) => ['a', ...KEY.map((k) => t[k]), t.route]),
    ...r.only_b.map((t) => ['b', ...KEY.map((k) => t[k]), t.route]),
  ];
  const cell = ['model', ...ROUTES, 'paradigm', 'language', 'column'] as const;
  return [
    [COMPARE_FILES.changed, changedHeader, changed],
    [COMPARE_FILES.unpaired, ['side', ...KEY, 'route'], unpaired],
    [
      COMPARE_FILES.transitions,
      [...cell, 'from', 'to', 'n', 'changed'],
      r.transitions.map((t) => [
        ...cell.map((k) => t[k]),
        t.from,
        t.to,
        t.n,
        t.from === t.to ? 0 : 1,
      ]),
    ],
    [
      COMPARE_FILES.mcnemar,
      [...cell, ...MCNEMAR],
      r.mcnemar.map((m) => [
        ...cell.map((k) => m[k]),
        ...MCNEMAR.map((k) => m[k as keyof typeof m] as Cell),
      ]),
    ],
  ];
}

/** Write the comparison into `outDir` (replaced whole); returns the header written. */
export async function writeCompare(
  r: CompareResult,
  outDir: string,
  options: { csvRaw?: boolean } = {},
): Promise<CompareResult> {
  const out = path.resolve(outDir);
  return writeOutFolder(out, SPEC, async (tmp) => {
    const files: NonNullable<CompareResult['files']> = [];
    for (const [file, header, rows] of compareTables(r)) {
      const text = csvText(header, rows, { raw: options.csvRaw ?? false });
      await writeFileAtomic(path.join(tmp, file), text);
      files.push({ file, rows: rows.length, sha256: sha256(text) });
    }
    const rel = (dir: string) => relPosix(out, path.resolve(dir));
    const header: CompareResult = {
      ...r,
      a: { ...r.a, dir: rel(r.a.dir) },
      b: { ...r.b, dir: rel(r.b.dir) },
      files,
    };
    await writeFileAtomic(path.join(tmp, COMPARE_FILES.header), artifactJson(header));
    return header;
  });
}
