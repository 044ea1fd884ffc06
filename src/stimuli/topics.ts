/**
 * Loading a topics file: schema, then the semantic rules (known keys and poles, every topic in
 * every language, templates and pairs via `topic-item.ts`), and `extends`, which adds languages
 * and topics to a base file while inheriting its poles, keys and texts, so they cannot drift apart
 * (`topics-overlay.ts`). The checks both kinds of file share are in `topics-checks.ts`.
 */
import type { Problem } from '../core/errors.js';
import {
  loadExtendsChain,
  problemAt,
  throwIfProblems,
  type InputFile,
  type LoadedFile,
} from './datafile.js';
import type { TextProvenance } from './provenance.js';
import type { TopicItem } from './topic-item.js';
import { checkPoles, duplicateIds, isPole, languageInfo, newTopic } from './topics-checks.js';
import { applyOverlay } from './topics-overlay.js';
import { TOPICS_FORMAT, TOPICS_VERSION, TopicsFileInput, type Pole } from './topics-schema.js';

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
  for (const f of ['languages', 'topics'] as const)
    if (Object.keys(data[f]).length === 0)
      problems.push(
        problemAt(parsed, [], {
          code: 'E_TOPICS_MISSING_FIELD',
          field: f,
          message: `a file that extends no other needs at least one entry in ${f}`,
          fix: `add ${f}`,
        }),
      );
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

/** The topics lacking an item, per language of the file (only languages some topic lacks). */
export function missingItems(file: TopicsFile): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const lang of file.languages) {
    const ids = file.topics.filter((t) => t.items[lang] === undefined).map((t) => t.id);
    if (ids.length > 0) out[lang] = ids;
  }
  return out;
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
