/**
 * Hostile inputs for the rater app and the viewer: every untrusted field they show (model
 * responses, prompts, judge names and rationales, score fields, and the bundle's study, entry,
 * provenance, fact, trial and variant fields) carries markup that would run if it were not
 * escaped, a `</script>`, a spreadsheet formula and an RTL override (U+202E). Each field's payload
 * names the field, so a failing check says which one was not escaped.
 *
 * The bundle is the label tests' sealed demo bundle with its JSON files rewritten and sealed
 * again: a bundle edited by hand and re-sealed (the pages check the manifest and the fields they
 * read, not everything `stimkit verify` checks), with a `source_url` of `javascript:` that
 * today's entries schema refuses.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeLabelSample } from '../../src/label/make-sample.js';
import type { LabelSample } from '../../src/label/sample-schema.js';
import { reseal } from '../verify/fixture.js';
import { writeLabelFixture } from './fixture.js';

/** The RTL override. */
const RLO = '\u202E';

/** A short payload (score fields are kept only up to 80 characters). */
export const short = (field: string): string =>
  `<img src=x onerror=alert("${field}")>${RLO}${field}`;

/** The full payload, for texts. */
const long = (field: string): string =>
  `${short(field)}</script><script>alert("${field}")</script> =HYPERLINK("http://x.invalid","${field}")`;

/** How the payload of `field` reads once escaped (what every page must show instead). */
export const escaped = (field: string): string =>
  `&lt;img src=x onerror=alert(&quot;${field}&quot;)&gt;`;

/** Markup that must never appear in a page built from the hostile inputs. */
const RAW = [/<img src=x/i, /<script>alert/i, /href="javascript:/i, /href='javascript:/i];

export interface HostileFixture {
  bundle: string;
  sampleFile: string;
  sample: LabelSample;
  judges: string;
  scores: string;
  /** The entry every hostile field is written into, and a second entry whose id is hostile. */
  entry: string;
  hostileEntry: string;
  /** A trial of `entry` (its prompt and variant are hostile). */
  trial: string;
}

async function rewriteJson(file: string, change: (v: Record<string, unknown>) => void) {
  const value = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  change(value);
  await writeFile(file, JSON.stringify(value));
}

type Json = Record<string, unknown>;

async function hostileBundle(bundle: string, entryId: string, hostileEntry: string) {
  const data = path.join(bundle, 'data');
  await rewriteJson(path.join(data, 'bundle.json'), (b) => {
    (b.study as Json).title = long('study');
  });
  await rewriteJson(path.join(data, 'entries.json'), (f) => {
    const entries = f.entries as Json[];
    const e = entries.find((x) => x.id === entryId)!;
    e.title = { en: long('title-en'), zh: long('title-zh') };
    e.topic = short('topic');
    e.roles = [short('role')];
    e.notes = long('notes');
    e.provenance = {
      archive: long('archive'),
      credit: long('credit'),
      date_taken: short('date'),
      license: long('license'),
      notes: long('prov-notes'),
      source_url: 'javascript:alert("source_url")',
    };
    e.expected_facts = [
      { id: 'f1', en: long('fact-en'), zh: long('fact-zh'), [short('fact-key')]: 'x' },
    ];
    entries.push({ ...e, id: hostileEntry });
  });
  await rewriteJson(path.join(data, 'variants.json'), (f) => {
    const r = (f.records as Json[]).find((x) => x.entry === entryId && x.code === 'A0')!;
    r.name = short('variant-name');
  });
  const trialsFile = path.join(data, 'trials.jsonl');
  const lines = (await readFile(trialsFile, 'utf8')).trim().split('\n');
  const out = lines.map((l) => {
    const t = JSON.parse(l) as Json & { messages: Array<{ content: Json[] }> };
    if (t.entry !== entryId) return l;
    for (const m of t.messages)
      for (const p of m.content) if (p.type === 'text') p.text = long('prompt');
    return JSON.stringify(t);
  });
  await writeFile(trialsFile, `${out.join('\n')}\n`);
  // Sealed again: the pages open a bundle through the one reader, which checks every payload
  // file against the manifest (an edited, unsealed bundle is refused before any page is built).
  await reseal(bundle);
}

/** Write the hostile bundle, sample, judges and scores into `dir`. */
export async function writeHostileFixture(dir: string): Promise<HostileFixture> {
  const fx = await writeLabelFixture(dir);
  const entry = 'dscovr-launch';
  const hostileEntry = short('entry-id');
  const sampleFile = path.join(dir, 'sample.json');
  await hostileBundle(fx.bundle, entry, hostileEntry);
  await makeLabelSample({
    bundle: fx.bundle,
    responses: fx.responses,
    out: sampleFile,
    n: 24,
    seed: 1,
  });
  const sample = JSON.parse(await readFile(sampleFile, 'utf8')) as LabelSample;
  // The first item shows the hostile entry; every item's texts are hostile.
  const first = sample.items.find((i) => i.entry === entry && i.images.length > 0)!;
  sample.items = [first, ...sample.items.filter((i) => i !== first)];
  for (const it of sample.items) {
    it.response = long('response');
    it.prompt = long('item-prompt');
    it.paradigm = short('paradigm');
    it.lang = short('item-lang');
    it.variant = short('item-variant');
  }
  await writeFile(sampleFile, JSON.stringify(sample));
  const judges = path.join(dir, 'judges.jsonl');
  await writeFile(
    judges,
    sample.items
      .flatMap((it) =>
        [short('judge-a'), 'judge-b'].map((judge, k) =>
          JSON.stringify({
            trial_id: it.trial_id,
            model: it.model,
            judge,
            d1: false,
            d2: true,
            d3: true,
            d4: k === 1,
            d5: true,
            rationale: long('rationale'),
          }),
        ),
      )
      .join('\n'),
  );
  const trial = JSON.parse(
    (await readFile(path.join(fx.bundle, 'data', 'trials.jsonl'), 'utf8'))
      .split('\n')
      .find((l) => l.includes(`"entry":"${entry}"`))!,
  ) as { id: string };
  const scores = path.join(dir, 'scores.jsonl');
  await writeFile(
    scores,
    `${JSON.stringify({
      trial_id: trial.id,
      model: short('model'),
      response: long('view-response'),
      simulated: true,
      d4_state_aligned: true,
      d4_strategy: short('strategy'),
      judge: short('judge'),
      [short('label-key')]: short('label-value'),
    })}\n`,
  );
  return {
    bundle: fx.bundle,
    sampleFile,
    sample,
    judges,
    scores,
    entry,
    hostileEntry,
    trial: trial.id,
  };
}

/** Where each RTL override of `page` sits: the tag that directly holds it (null: inside a tag's attribute). */
function rloHolders(page: string): Array<string | null> {
  const out: Array<string | null> = [];
  for (let i = page.indexOf(RLO); i >= 0; i = page.indexOf(RLO, i + 1)) {
    const before = page.slice(0, i);
    const lt = before.lastIndexOf('<');
    const gt = before.lastIndexOf('>');
    out.push(lt > gt ? null : before.slice(lt, gt + 1));
  }
  return out;
}

/**
 * Check one page built from hostile inputs: no payload became markup or a `javascript:` link, the
 * payloads of `fields` are shown as text, and every RTL override is held by an element that
 * isolates it (`<bdi>`, `<pre class="verbatim">` with unicode-bidi: plaintext, `<textarea>`,
 * `<option>`), so it cannot reorder the page's own text around it.
 */
export function inertProblems(page: string, fields: string[]): string[] {
  const problems: string[] = [];
  for (const re of RAW) {
    const m = re.exec(page);
    if (m)
      problems.push(`raw markup ${re} at …${page.slice(Math.max(0, m.index - 80), m.index + 40)}…`);
  }
  for (const f of fields)
    if (!page.includes(escaped(f))) problems.push(`${f} is not shown escaped`);
  for (const tag of rloHolders(page))
    if (tag !== null && !/^<(bdi|pre class="verbatim"|textarea|option)[\s>]/.test(tag))
      problems.push(`an RTL override directly inside ${tag}`);
  return problems;
}
