/**
 * Checks of an entries manifest that a schema cannot express: unique ids, what each role needs,
 * licence and credit, references between entries. Pure: no file access.
 */
import { lineOf, type ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import type { EntriesManifest } from './schema.js';

type Entry = EntriesManifest['entries'][number];

/** Where a problem of entries[i] (and the field path `rest` under it) is: file, line, field. */
type Locate = (i: number, ...rest: PropertyKey[]) => Pick<Problem, 'file' | 'line' | 'field'>;

/** Every manifest-level problem, errors and warnings, with lines where the file gives them. */
export function checkManifest(manifest: EntriesManifest, parsed: ParsedDataFile): Problem[] {
  const problems: Problem[] = [];
  const file = parsed.file;
  const at = (i: number, ...rest: PropertyKey[]) => ({
    file,
    line: lineOf(parsed, ['entries', i, ...rest]),
    field: `entries[${i}]${rest.map((r) => (typeof r === 'number' ? `[${r}]` : `.${String(r)}`)).join('')}`,
  });

  const firstIndex = new Map<string, number>();
  manifest.entries.forEach((e, i) => {
    const prev = firstIndex.get(e.id);
    if (prev !== undefined) {
      problems.push({
        code: 'E_INGEST_DUPLICATE_ID',
        severity: 'error',
        ...at(i, 'id'),
        entry: e.id,
        message: `id "${e.id}" is already used by entries[${prev}]`,
        fix: 'give every entry its own id',
      });
    } else firstIndex.set(e.id, i);
  });

  manifest.entries.forEach((e, i) =>
    checkEntry(e, i, manifest.languages, firstIndex, at, problems),
  );
  return problems;
}

/** The problems of entries[i], `e`, in file order of the checks. */
function checkEntry(
  e: Entry,
  i: number,
  languages: readonly string[],
  firstIndex: ReadonlyMap<string, number>,
  at: Locate,
  problems: Problem[],
): void {
  for (const lang of languages) {
    if (!e.title[lang]) {
      problems.push({
        code: 'E_INGEST_MISSING_LANGUAGE',
        severity: 'error',
        ...at(i, 'title'),
        entry: e.id,
        message: `no title in study language "${lang}"`,
        fix: `add title.${lang}`,
      });
    }
  }
  if (e.roles.includes('core')) checkCoreFacts(e, i, languages, at, problems);
  const factIds = new Set<string>();
  e.expected_facts.forEach((f, j) => {
    if (factIds.has(f.id)) {
      problems.push({
        code: 'E_INGEST_DUPLICATE_FACT_ID',
        severity: 'error',
        ...at(i, 'expected_facts', j, 'id'),
        entry: e.id,
        message: `expected fact id "${f.id}" appears twice in this entry`,
        fix: 'give each expected fact its own id',
      });
    }
    factIds.add(f.id);
  });
  if (e.roles.includes('anchor')) {
    const missing = languages.filter((l) => !e.anchor?.name[l]);
    if (missing.length > 0) {
      problems.push({
        code: 'E_INGEST_ANCHOR_NAME',
        severity: 'error',
        ...at(i, e.anchor ? 'anchor' : 'roles'),
        entry: e.id,
        message: `an anchor entry needs an anchor name in ${missing.join(', ')} (it fills {subject} in the comment-text prompt)`,
        fix: `add ${missing.map((l) => `anchor.name.${l}`).join(' and ')}`,
      });
    }
  }
  for (const key of ['license', 'credit'] as const) {
    if (!e.provenance[key]) {
      problems.push({
        code: key === 'license' ? 'W_INGEST_NO_LICENSE' : 'W_INGEST_NO_CREDIT',
        severity: 'warning',
        ...at(i, 'provenance'),
        entry: e.id,
        message: `provenance.${key} is missing`,
        fix: `add provenance.${key} (required under --strict)`,
      });
    }
  }
  const same = e.image.same_as;
  if (same !== undefined && (same === e.id || !firstIndex.has(same))) {
    problems.push({
      code: 'E_INGEST_SAME_AS',
      severity: 'error',
      ...at(i, 'image', 'same_as'),
      entry: e.id,
      message:
        same === e.id
          ? 'image.same_as names the entry itself'
          : `image.same_as names "${same}", which is not an entry`,
      fix: 'name the id of the other entry that shares this image',
    });
  }
}

/** A core entry needs expected facts, each with text in every study language. */
function checkCoreFacts(
  e: Entry,
  i: number,
  languages: readonly string[],
  at: Locate,
  problems: Problem[],
): void {
  if (e.expected_facts.length === 0) {
    problems.push({
      code: 'E_INGEST_CORE_NO_FACTS',
      severity: 'error',
      ...at(i, 'roles'),
      entry: e.id,
      message: 'a core entry needs expected facts',
      fix: 'add expected_facts with text in every study language, or drop the core role',
    });
  }
  e.expected_facts.forEach((f, j) => {
    const missing = languages.filter((l) => typeof f[l] !== 'string');
    if (missing.length > 0) {
      problems.push({
        code: 'E_INGEST_FACT_LANGUAGE',
        severity: 'error',
        ...at(i, 'expected_facts', j),
        entry: e.id,
        message: `expected fact "${f.id}" of a core entry has no text in ${missing.join(', ')}`,
        expected: `text in every study language (${languages.join(', ')})`,
        got: `text in ${languages.filter((l) => !missing.includes(l)).join(', ') || 'none'}`,
        fix: `add ${missing.map((l) => `expected_facts[${j}].${l}`).join(' and ')}`,
      });
    }
  });
}
