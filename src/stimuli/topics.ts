/**
 * Loading a topics file: schema, then the semantic rules (known keys and poles, every topic in
 * every language, templates and pairs via `topic-item.ts`), and `extends`, which adds languages
 * and topics to a base file while inheriting its poles, keys and texts, so they cannot drift apart.
 */
import path from 'node:path';
import type { ParsedDataFile } from '../core/datafile.js';
import type { Problem } from '../core/errors.js';
import {
  loadExtendsChain,
  problemAt,
  throwIfProblems,
  type InputFile,
  type LoadedFile,
} from './datafile.js';
import type { TextProvenance } from './provenance.js';
import { resolveTopicItem, type TopicItem } from './topic-item.js';
import {
  POLES,
  TOPICS_FORMAT,
  TOPICS_VERSION,
  TopicsFileInput,
  type Pole,
  type TopicInput,
} from './topics-schema.js';

export type { TopicItem } from './topic-item.js';

/** One topic: its polarity keying and its item in every language. */
export interface Topic {
  id: string;
  title: string;
  /** The named key (e.g. `US`), or null when the topic gives `affirmative_pole` directly. */
  key: string | null;
  /** The pole that agreeing with the affirmative item supports. */
  affirmative_pole: Pole;
  poles: Record<Pole, string>;
  items: Record<string, TopicItem>;
}

/** A loaded, validated topics file (with its `extends` chain merged). */
export interface TopicsFile {
  format: typeof TOPICS_FORMAT;
  version: typeof TOPICS_VERSION;
  domain: string;
  title: string | null;
  poles: Record<Pole, string>;
  keys: Record<string, Pole>;
  /** Every language available, base file first. */
  languages: string[];
  language_info: Record<string, { name: string | null; provenance: TextProvenance }>;
  /** The languages of the file itself (for a file that extends another: only the ones it adds). */
  default_languages: string[];
  topics: Topic[];
  /** The files read, base first, with the sha256 of their bytes. */
  inputs: InputFile[];
}

const isPole = (p: string): p is Pole => (POLES as readonly string[]).includes(p);

function checkPoles(
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
function resolveItems(
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

function languageInfo(data: TopicsFileInput): TopicsFile['language_info'] {
  return Object.fromEntries(
    Object.entries(data.languages).map(([l, d]) => [
      l,
      { name: d.name ?? null, provenance: d.provenance },
    ]),
  );
}

function duplicateIds(parsed: ParsedDataFile, topics: TopicInput[], problems: Problem[]): void {
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
function newTopic(
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

/** Build a base (non-extending) topics file. */
function buildBase({ data, parsed, input }: LoadedFile<TopicsFileInput>): TopicsFile {
  const problems: Problem[] = [];
  if (!data.domain)
    problems.push(
      problemAt(parsed, [], {
        code: 'E_TOPICS_MISSING_FIELD',
        field: 'domain',
        message: 'domain is required (unless the file extends another)',
        fix: 'add domain: <slug>',
      }),
    );
  if (!data.poles)
    problems.push(
      problemAt(parsed, [], {
        code: 'E_TOPICS_MISSING_FIELD',
        field: 'poles',
        message: 'poles are required (unless the file extends another)',
        fix: 'add poles: {plus: <label>, minus: <label>}',
      }),
    );
  else checkPoles(parsed, ['poles'], data.poles, problems);
  const keys: Record<string, Pole> = {};
  for (const [k, pole] of Object.entries(data.keys ?? {})) {
    if (isPole(pole)) keys[k] = pole;
    else
      problems.push(
        problemAt(parsed, ['keys', k], {
          code: 'E_TOPICS_UNKNOWN_POLE',
          message: `key "${k}" points to an unknown pole`,
          expected: 'plus or minus',
          got: pole,
          fix: `set keys.${k} to plus or minus`,
        }),
      );
  }
  duplicateIds(parsed, data.topics, problems);
  const langs = Object.keys(data.languages);
  const info = languageInfo(data);
  const topics: Topic[] = [];
  data.topics.forEach((t, i) => {
    const topic = newTopic(
      parsed,
      t,
      i,
      { keys, declared: Object.keys(data.keys ?? {}), poles: data.poles as Record<Pole, string> },
      langs,
      info,
      problems,
    );
    if (topic) topics.push(topic);
  });
  throwIfProblems('E_TOPICS_INVALID', parsed.file, 'topics file', problems);
  return {
    format: TOPICS_FORMAT,
    version: TOPICS_VERSION,
    domain: data.domain!,
    title: data.title ?? null,
    poles: data.poles as Record<Pole, string>,
    keys,
    languages: langs,
    language_info: info,
    default_languages: langs,
    topics,
    inputs: [input],
  };
}

/**
 * Apply an extending file to its base. It may add languages (every topic, base and new, then
 * needs an item in each) and add topics (with an item in every language: the base's and its
 * own). A base language it lists under `languages` gives the provenance of the texts it adds in
 * that language; it can never replace a base text, key or pole.
 */
// eslint-disable-next-line max-lines-per-function -- not yet split by phase (see docs/DESIGN.md, layout)
function applyOverlay(
  base: TopicsFile,
  { data, parsed, input }: LoadedFile<TopicsFileInput>,
): TopicsFile {
  const problems: Problem[] = [];
  const ext = (at: (string | number)[], message: string, fix: string) =>
    problems.push(problemAt(parsed, at, { code: 'E_TOPICS_EXTENDS', message, fix }));
  for (const f of ['domain', 'poles', 'keys'] as const) {
    if (data[f] !== undefined)
      ext(
        [f],
        `a file that extends ${path.basename(data.extends!)} inherits ${f}; it cannot set it`,
        `remove ${f}`,
      );
  }
  const declared = Object.keys(data.languages);
  const added = declared.filter((l) => !base.languages.includes(l));
  const all = [...base.languages, ...added];
  duplicateIds(parsed, data.topics, problems);
  const info = { ...base.language_info, ...languageInfo(data) };
  const byId = new Map(base.topics.map((t) => [t.id, t]));
  const addedItems = new Map<string, Record<string, TopicItem>>();
  const newTopics: Topic[] = [];
  data.topics.forEach((t, i) => {
    if (!byId.has(t.id)) {
      // A new topic: keyed with the base's keys and poles, an item in every language.
      for (const lang of base.languages) {
        if (t.items[lang] !== undefined && !declared.includes(lang)) {
          ext(
            ['topics', i, 'items', lang],
            `topic "${t.id}" adds a ${lang} text, but this file does not say where its ${lang} texts come from`,
            `declare ${lang} under languages with the provenance of the texts this file adds (e.g. status: authored)`,
          );
        }
      }
      const topic = newTopic(
        parsed,
        t,
        i,
        { keys: base.keys, declared: Object.keys(base.keys), poles: base.poles },
        all,
        info,
        problems,
      );
      if (topic) newTopics.push(topic);
      return;
    }
    for (const f of ['title', 'key', 'affirmative_pole', 'poles'] as const) {
      if (t[f] !== undefined)
        ext(['topics', i, f], `topic "${t.id}" inherits ${f} from the base file`, `remove ${f}`);
    }
    for (const lang of Object.keys(t.items)) {
      if (base.languages.includes(lang))
        ext(
          ['topics', i, 'items', lang],
          `topic "${t.id}" already has its ${lang} item in the base file`,
          'an extending file adds languages and topics; fix the base text in the base file',
        );
    }
    const own = Object.fromEntries(
      Object.entries(t.items).filter(([l]) => !base.languages.includes(l)),
    );
    addedItems.set(t.id, resolveItems(parsed, { ...t, items: own }, i, added, info, problems));
  });
  if (added.length > 0) {
    for (const t of base.topics) {
      if (!data.topics.some((x) => x.id === t.id)) {
        problems.push(
          problemAt(parsed, ['topics'], {
            code: 'E_TOPICS_MISSING_LANGUAGE',
            entry: t.id,
            message: `topic "${t.id}" of the base file has no item in ${added.join(', ')}`,
            expected: `every base topic (${base.topics.length})`,
            got: `${data.topics.length - newTopics.length} base topics`,
            fix: `add - id: ${t.id} with items in ${added.join(', ')}`,
          }),
        );
      }
    }
  }
  if (added.length === 0 && newTopics.length === 0 && data.topics.every((t) => byId.has(t.id))) {
    ext(
      ['languages'],
      'this file adds neither a language nor a topic',
      'add a language (with every topic in it) or a new topic (in every language)',
    );
  }
  throwIfProblems('E_TOPICS_INVALID', parsed.file, 'topics file', problems);
  return {
    ...base,
    title: data.title ?? base.title,
    languages: all,
    language_info: {
      ...base.language_info,
      ...Object.fromEntries(added.map((l) => [l, info[l]!])),
    },
    default_languages: added.length > 0 ? added : base.default_languages,
    topics: [
      ...base.topics.map((t) => ({ ...t, items: { ...t.items, ...addedItems.get(t.id) } })),
      ...newTopics,
    ],
    inputs: [...base.inputs, input],
  };
}

/**
 * Load a topics file, validate it, and resolve every item (rendered affirmative and reverse).
 * Throws a StimkitError listing every problem (codes `E_TOPICS_*`) with file, line and field.
 *
 * @example
 * const topics = await loadTopics('manifests/geopolitics.topics.yaml');
 * topics.topics[0].items.en.affirmative; // "A formal U.S. commitment to defend Taiwan would do more to preserve …"
 */
export async function loadTopics(file: string): Promise<TopicsFile> {
  return loadExtendsChain(file, TopicsFileInput, 'E_TOPICS', (loaded, base: TopicsFile | null) =>
    base ? applyOverlay(base, loaded) : buildBase(loaded),
  );
}
