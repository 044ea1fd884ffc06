/**
 * The checks a base topics file and a file that extends one share: pole labels, topic ids, the
 * languages a file lists, and one topic defined in full (its polarity key or pole, its pole labels
 * and its item in every language, each resolved through `topic-item.ts`). Each pushes its
 * problems onto the list it is given, in file order.
 */
import type { ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import { problemAt } from './datafile.js';
import { resolveTopicItem, type TopicItem } from './topic-item.js';
import type { Topic, TopicsFile } from './topics.js';
import { POLES, type Pole, type TopicInput, type TopicsFileInput } from './topics-schema.js';

/** Whether `p` is one of the two poles. */
export const isPole = (p: string): p is Pole => (POLES as readonly string[]).includes(p);

/** Check a pole-label map at `at`: only plus and minus, both labelled; push problems. */
export function checkPoles(
  parsed: ParsedDataFile,
  at: (string | number)[],
  poles: Record<string, string>,
  problems: Problem[],
): void {
  for (const k of Object.keys(poles)) {
    if (!isPole(k)) {
      problems.push(
        problemAt(parsed, [...at, k], {
          code: 'E_TOPICS_UNKNOWN_POLE',
          message: `unknown pole "${k}"`,
          expected: 'plus or minus',
          got: k,
          fix: 'label exactly the two poles plus and minus',
        }),
      );
    }
  }
  for (const k of POLES) {
    if (poles[k] === undefined)
      problems.push(
        problemAt(parsed, at, {
          code: 'E_TOPICS_MISSING_FIELD',
          message: `the ${k} pole has no label`,
          expected: `${at.join('.')}.${k}`,
          fix: `add ${k}: <label>`,
        }),
      );
  }
}

/** Check and resolve the items of one topic in `langs`; push problems. */
export function resolveItems(
  parsed: ParsedDataFile,
  t: TopicInput,
  i: number,
  langs: string[],
  info: TopicsFile['language_info'],
  problems: Problem[],
): Record<string, TopicItem> {
  const items: Record<string, TopicItem> = {};
  for (const lang of langs) {
    const raw = t.items[lang];
    if (!raw) {
      problems.push(
        problemAt(parsed, ['topics', i, 'items'], {
          code: 'E_TOPICS_MISSING_LANGUAGE',
          entry: t.id,
          message: `topic "${t.id}" has no item in ${lang}`,
          expected: `items for ${langs.join(', ')}`,
          got: Object.keys(t.items).join(', ') || 'none',
          fix: `add items.${lang}`,
        }),
      );
      continue;
    }
    const r = resolveTopicItem(
      raw,
      lang,
      ['topics', i, 'items', lang],
      parsed,
      info[lang]!.provenance,
    );
    problems.push(...r.problems.map((p) => ({ ...p, entry: t.id })));
    if (r.item) items[lang] = r.item;
  }
  for (const lang of Object.keys(t.items)) {
    if (!langs.includes(lang)) {
      problems.push(
        problemAt(parsed, ['topics', i, 'items', lang], {
          code: 'E_TOPICS_UNDECLARED_LANGUAGE',
          entry: t.id,
          message: `language ${lang} is not declared in this file's languages`,
          expected: langs.join(', '),
          got: lang,
          fix: `declare ${lang} under languages (with its provenance) or remove the item`,
        }),
      );
    }
  }
  return items;
}

/** The name and default provenance of each language a file lists. */
export function languageInfo(data: TopicsFileInput): TopicsFile['language_info'] {
  return Object.fromEntries(
    Object.entries(data.languages).map(([l, d]) => [
      l,
      { name: d.name ?? null, provenance: d.provenance },
    ]),
  );
}

/** Push a problem for each topic whose id an earlier topic of the file already uses. */
export function duplicateIds(
  parsed: ParsedDataFile,
  topics: TopicInput[],
  problems: Problem[],
): void {
  const seen = new Map<string, number>();
  topics.forEach((t, i) => {
    const first = seen.get(t.id);
    if (first !== undefined)
      problems.push(
        problemAt(parsed, ['topics', i, 'id'], {
          code: 'E_TOPICS_DUPLICATE_ID',
          message: `topic id "${t.id}" is used twice`,
          expected: 'unique ids',
          got: `topics[${first}] and topics[${i}]`,
          fix: 'rename one of them',
        }),
      );
    else seen.set(t.id, i);
  });
}

/**
 * A topic defined in full (in a base file, or added by an extending file): its polarity key or
 * pole, its pole labels and its items in `langs`. Null when its keying is invalid (problems pushed).
 */
export function newTopic(
  parsed: ParsedDataFile,
  t: TopicInput,
  i: number,
  keying: { keys: Record<string, Pole>; declared: string[]; poles: Record<Pole, string> },
  langs: string[],
  info: TopicsFile['language_info'],
  problems: Problem[],
): Topic | null {
  let pole: Pole | undefined;
  if (t.key !== undefined && t.affirmative_pole !== undefined) {
    problems.push(
      problemAt(parsed, ['topics', i, 'affirmative_pole'], {
        code: 'E_TOPICS_KEY_CONFLICT',
        entry: t.id,
        message: 'give key or affirmative_pole, not both',
        fix: 'remove one of them',
      }),
    );
  } else if (t.key !== undefined) {
    pole = keying.keys[t.key];
    if (!pole && !keying.declared.includes(t.key)) {
      problems.push(
        problemAt(parsed, ['topics', i, 'key'], {
          code: 'E_TOPICS_UNKNOWN_KEY',
          entry: t.id,
          message: `unknown key "${t.key}"`,
          expected: `one of ${keying.declared.join(', ') || '(no keys declared)'}`,
          got: t.key,
          fix: 'use a key declared under keys (of the base file, for a file that extends one), or declare it there',
        }),
      );
    }
  } else if (t.affirmative_pole !== undefined) {
    if (isPole(t.affirmative_pole)) pole = t.affirmative_pole;
    else
      problems.push(
        problemAt(parsed, ['topics', i, 'affirmative_pole'], {
          code: 'E_TOPICS_UNKNOWN_POLE',
          entry: t.id,
          message: 'unknown pole',
          expected: 'plus or minus',
          got: t.affirmative_pole,
          fix: 'use plus or minus',
        }),
      );
  } else {
    problems.push(
      problemAt(parsed, ['topics', i], {
        code: 'E_TOPICS_MISSING_FIELD',
        entry: t.id,
        field: `topics[${i}].key`,
        message: `topic "${t.id}" has no polarity key`,
        fix: 'add key: <a declared key> (or affirmative_pole: plus|minus)',
      }),
    );
  }
  if (t.poles) checkPoles(parsed, ['topics', i, 'poles'], t.poles, problems);
  const items = resolveItems(parsed, t, i, langs, info, problems);
  if (!pole) return null;
  return {
    id: t.id,
    title: t.title ?? t.id,
    key: t.key ?? null,
    affirmative_pole: pole,
    poles: { ...keying.poles, ...(t.poles as Record<Pole, string> | undefined) },
    items,
  };
}
