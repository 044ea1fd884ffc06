/** Shared setup for run tests: a bag, a models file pointing at a test server, ledger reads. */
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { stringify } from 'yaml';
import { runCli, type CliRun } from '../helpers/cli.js';

/** Write a models file with the given models (defaults filled in) and return its path. */
export async function writeModels(
  dir: string,
  models: Array<Record<string, unknown>>,
  name = 'models.yaml',
): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, stringify({ format: 'stimkit.models', version: 1, models }));
  return file;
}

/** Rows of a SQL query on a ledger (opened read-only). */
export function query<T = any>(ledger: string, sql: string, ...args: unknown[]): T[] {
  const db = new Database(ledger, { readonly: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

/** Fast retries for tests. */
export const FAST = { baseMs: 2, capMs: 10 };

/** Every file under `root`, recursively (for searching written files for a key). */
export async function allFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(root, { withFileTypes: true })) {
    const p = path.join(root, e.name);
    if (e.isDirectory()) out.push(...(await allFiles(p)));
    else out.push(p);
  }
  return out;
}

/**
 * `stimkit batch import <files…> --bundle <bag> --model <model> --ledger <ledger> --models
 * <models> [extra…]`, in-process.
 */
export function importBatch(
  files: string[],
  bag: string,
  models: string,
  model: string,
  ledger: string,
  ...extra: string[]
): Promise<CliRun> {
  return runCli([
    'batch',
    'import',
    ...files,
    '--bundle',
    bag,
    '--model',
    model,
    '--ledger',
    ledger,
    '--models',
    models,
    ...extra,
  ]);
}

/** `stimkit batch export <bag> --models <models> --model <model> --out <out> [extra…]`, in-process. */
export function exportBatch(
  bag: string,
  models: string,
  model: string,
  out: string,
  ...extra: string[]
): Promise<CliRun> {
  return runCli([
    'batch',
    'export',
    bag,
    '--models',
    models,
    '--model',
    model,
    '--out',
    out,
    ...extra,
  ]);
}
