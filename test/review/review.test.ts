// `stimkit review`: a self-contained page and a CSV from an entries manifest, a corpus lock or a bundle.
import { copyFile, cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { csvField } from '../../src/core/csv.js';
import { reviewCsv } from '../../src/review/csv.js';
import { reviewHtml } from '../../src/review/html.js';
import type { ReviewData } from '../../src/review/source.js';
import type { Entry } from '../../src/ingest/schema.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { sharedDemo } from '../helpers/shared-demo.js';
import { tempDir } from '../helpers/tmp.js';

const DEMO = path.join(ROOT, 'corpora', 'demo');

/** Data URLs and the entries' own source links are the only URLs; no scripts, no remote resources. */
function expectSelfContained(html: string): void {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<link\b/i);
  for (const m of html.matchAll(/\bsrc="([^"]*)"/g))
    expect(m[1]).toMatch(/^data:image\/jpeg;base64,/);
}

describe('stimkit review', () => {
  it('shows every entry with its image, texts in every language, provenance and the A0–A6 ladder', async () => {
    const out = await tempDir('stimkit-review-');
    const r = await runCli([
      'review',
      path.join(ROOT, 'manifests', 'demo.entries.yaml'),
      '--out',
      out,
      '--variants',
      path.join(ROOT, 'variants', 'demo', 'variants.lock.json'),
      '--json',
    ]);
    expect(r.code).toBe(0);
    // one warned entry: chelsea-cat's silhouette is a blob (W_VARIANTS_A6_BLOB, 77 % of the frame)
    expect(r.json()).toMatchObject({ ok: true, entries: 6, with_warnings: 1, without_image: 0 });
    const html = await readFile(path.join(out, 'index.html'), 'utf8');
    expectSelfContained(html);
    // 6 thumbnails + 6 × 7 ladder images
    expect(html.match(/src="data:image\/jpeg/g)).toHaveLength(6 + 42);
    expect(html).toContain('猎鹰9号火箭发射DSCOVR卫星');
    expect(html).toContain('The rocket is a SpaceX Falcon 9.');
    expect(html).toContain('https://www.flickr.com/photos/spacexphotos/16511594820/');
    expect(html).toContain('A6 silhouette');
    const csv = (await readFile(path.join(out, 'entries.csv'), 'utf8')).split('\r\n');
    expect(csv[0]).toBe(
      'id,topic,sensitivity,roles,title_en,title_zh,facts,facts_en,facts_zh,anchor_en,anchor_zh,image,archive,source_url,credit,date_taken,date_retrieved,license,ladder,warnings',
    );
    expect(csv).toHaveLength(6 + 2);
    expect(csv[1]).toContain('A0 A1 A2 A3 A4 A5 A6');
    // Same input, same bytes.
    const again = await tempDir('stimkit-review-again-');
    await runCli([
      'review',
      path.join(ROOT, 'manifests', 'demo.entries.yaml'),
      '--out',
      again,
      '--variants',
      path.join(ROOT, 'variants', 'demo', 'variants.lock.json'),
    ]);
    expect(await readFile(path.join(again, 'index.html'), 'utf8')).toBe(html);
  });

  it('shows problems, missing texts and missing images, with the text escaped', async () => {
    const dir = await tempDir('stimkit-review-in-');
    await copyFile(path.join(DEMO, 'rocket.jpg'), path.join(dir, 'rocket.jpg'));
    await writeFile(
      path.join(dir, 'x.entries.yaml'),
      [
        'format: stimkit.entries',
        'version: 1',
        'corpus: trial',
        'languages: [en, zh, ja]',
        'entries:',
        '  - {id: rocket, title: {en: A rocket, zh: 火箭, ja: ロケット}, topic: space, sensitivity: high, roles: [core], image: {file: rocket.jpg}, provenance: {archive: x}, expected_facts: [{id: f1, en: It is a rocket., zh: 这是火箭。}]}',
        '  - {id: gone, title: {en: "Missing <b>image</b>", zh: 缺失}, topic: space, sensitivity: low, roles: [control], image: {file: nothere.png}, provenance: {archive: x, credit: y, license: CC0-1.0}}',
      ].join('\n'),
    );
    const out = path.join(dir, 'review');
    const r = await runCli(['review', path.join(dir, 'x.entries.yaml'), '--out', out, '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ entries: 2, with_warnings: 2, without_image: 1 });
    const html = await readFile(path.join(out, 'index.html'), 'utf8');
    expectSelfContained(html);
    expect(html).toContain('Missing &lt;b&gt;image&lt;/b&gt;');
    expect(html).toContain('W_INGEST_NO_LICENSE');
    expect(html).toContain('E_INGEST_FACT_LANGUAGE');
    expect(html).toContain('image not found<br>nothere.png');
    expect(html.match(/src="data:image\/jpeg/g)).toHaveLength(1);
    const csv = await readFile(path.join(out, 'entries.csv'), 'utf8');
    expect(csv).toContain('f1: (missing)');
    expect(csv).toContain('"Missing <b>image</b>"'.replace(/"/g, ''));
  });

  it('reads a corpus lock, and refuses a bundle folder without entries', async () => {
    const out = await tempDir('stimkit-review-lock-');
    const r = await runCli(['review', path.join(DEMO, 'corpus.lock.json'), '--out', out, '--json']);
    expect(r.code).toBe(0);
    expect(r.json().entries).toBe(6);
    // the variants lock is named relative to the input's own folder, and the input is not called an entries file
    const withLadder = await tempDir('stimkit-review-lock-variants-');
    const v = await runCli([
      'review',
      path.join(DEMO, 'corpus.lock.json'),
      '--variants',
      path.join(ROOT, 'variants', 'demo', 'variants.lock.json'),
      '--out',
      withLadder,
    ]);
    expect(v.code, v.stderr).toBe(0);
    const page = await readFile(path.join(withLadder, 'index.html'), 'utf8');
    expect(page).toContain(
      'variants ../../variants/demo/variants.lock.json (relative to the folder of corpus.lock.json)',
    );
    expect(page).not.toContain('entries file');
    const bad = await runCli(['review', out, '--out', `${out}-x`, '--json']);
    expect(bad.code).toBe(1);
    expect(bad.json().error.code).toBe('E_REVIEW_INPUT');
  });

  it('reads the variants lock as stimkit variants does: refuses one in another layout, naming the field', async () => {
    const dir = await tempDir('stimkit-review-badlock-');
    const lock = JSON.parse(
      await readFile(path.join(ROOT, 'variants', 'demo', 'variants.lock.json'), 'utf8'),
    );
    const review = async (value: unknown) => {
      const file = path.join(dir, 'variants.lock.json');
      await writeFile(file, JSON.stringify(value));
      const args = [path.join(ROOT, 'manifests', 'demo.entries.yaml'), '--variants', file];
      return runCli(['review', ...args, '--out', path.join(dir, 'out'), '--json']);
    };
    // a variant's status that is not one a lock holds: it was shown as the status "7"
    const changed = structuredClone(lock);
    changed.entries[1].variants[2].status = 7;
    const r = await review(changed);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('E_VARIANTS_LOCK_INVALID');
    expect(r.json().error.problems[0].field).toBe('entries[1].variants[2].status');
    const other = await review({ ...lock, format: 'stimkit.corpus' });
    expect(other.code).toBe(1);
    expect(other.json().error.code).toBe('E_VARIANTS_LOCK_VERSION');
  });

  it('reads a sealed bundle through its manifest, and refuses one changed after sealing, naming the file', async () => {
    const dir = await tempDir('stimkit-review-bundle-');
    const bundle = path.join(dir, 'bundle');
    await cp(path.join((await sharedDemo()).out, 'bundle'), bundle, { recursive: true });
    const ok = await runCli(['review', bundle, '--out', path.join(dir, 'r1'), '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json()).toMatchObject({ entries: 6, without_image: 0 });
    const page = await readFile(path.join(dir, 'r1', 'index.html'), 'utf8');
    expect(page).toContain('from the bundle bundle · bundle digest ');
    const file = path.join(bundle, 'data', 'entries.json');
    await writeFile(file, (await readFile(file, 'utf8')).replace('"en":', '"en": '));
    const bad = await runCli(['review', bundle, '--out', path.join(dir, 'r2'), '--json']);
    expect(bad.code).toBe(1);
    const error = JSON.stringify(bad.json().error);
    expect(bad.json().error.code).toBe('E_REVIEW_INPUT');
    expect(error).toContain('entries.json');
    expect(error).toContain('does not match manifest-sha256.txt');
  });

  it('quotes CSV fields as RFC 4180 asks', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "x"')).toBe('"say ""x"""');
    expect(csvField(null)).toBe('');
  });
});

describe('stimkit review with hostile manifest fields', () => {
  const IMG = `<img src=x onerror=alert('img')>`;
  const SCRIPT = `</script><script>alert('script')</script>`;
  const QUOTE = `x" onfocus="alert('attr')`;
  const FORMULA = `=HYPERLINK("http://evil.example/","open")`;
  const RTL = `cat\u202Egnp.exe`;
  /** No markup from the data became markup. */
  const expectInert = (html: string) => {
    // no tag has an onerror attribute: attribute values (escaped text, such as an image's alt
    // made from a hostile title) are blanked first
    expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\sonfocus="/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).not.toContain('\u202E');
  };

  it('shows every field as text on the page, links only http(s) URLs, and neutralises formulas in the CSV', () => {
    const entry = {
      id: 'e1',
      title: { en: IMG, zh: RTL },
      topic: SCRIPT,
      sensitivity: QUOTE,
      roles: [IMG, FORMULA],
      image: { file: SCRIPT },
      provenance: {
        archive: FORMULA,
        source_url: 'javascript:alert(1)',
        credit: IMG,
        date_taken: QUOTE,
        license: RTL,
        notes: SCRIPT,
      },
      expected_facts: [{ id: QUOTE, en: `@SUM(1+1)`, zh: IMG }],
      anchor: { name: { en: SCRIPT, zh: FORMULA } },
    } as unknown as Entry;
    const data: ReviewData = {
      kind: 'entries',
      input: IMG,
      corpus: SCRIPT,
      languages: ['en', 'zh'],
      notes: [QUOTE, RTL],
      entries: [
        {
          entry,
          image: null,
          warnings: [{ source: 'ingest', code: QUOTE, message: IMG }],
          ladder: [{ code: 'A0', name: SCRIPT, file: null, status: IMG }],
        },
      ],
    };
    const html = reviewHtml(data, [{ thumb: null, ladder: [null] }]);
    expectInert(html);
    for (const t of [
      '&lt;img src=x onerror=alert(&#39;img&#39;)&gt;',
      '&lt;/script&gt;&lt;script&gt;alert(&#39;script&#39;)&lt;/script&gt;',
      'x&quot; onfocus=&quot;alert(&#39;attr&#39;)',
      'cat[U+202E]gnp.exe',
      'javascript:alert(1)',
    ])
      expect(html).toContain(t);
    expect(html.match(/&lt;img src=x/g)!.length).toBeGreaterThanOrEqual(7);
    const rows = parse(reviewCsv(data));
    const row = Object.fromEntries(rows[0]!.map((h, i) => [h, rows[1]![i]!]));
    expect(row.archive).toBe(`'${FORMULA}`);
    expect(row.facts_en).toBe(`${QUOTE}: @SUM(1+1)`);
    expect(row.anchor_zh).toBe(`'${FORMULA}`);
    expect(row.title_zh).toBe(RTL);
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('keeps a hostile manifest inert end to end', async () => {
    const dir = await tempDir('stimkit-review-hostile-');
    await copyFile(path.join(DEMO, 'rocket.jpg'), path.join(dir, 'rocket.jpg'));
    const yaml = (s: string) => JSON.stringify(s);
    await writeFile(
      path.join(dir, 'x.entries.yaml'),
      [
        'format: stimkit.entries',
        'version: 1',
        'corpus: trial',
        'languages: [en, zh]',
        'entries:',
        `  - {id: rocket, title: {en: ${yaml(IMG)}, zh: ${yaml(RTL)}}, topic: space, sensitivity: high, roles: [core], image: {file: rocket.jpg}, provenance: {archive: ${yaml(FORMULA)}, credit: ${yaml(SCRIPT)}, license: CC0-1.0, notes: ${yaml(QUOTE)}}, expected_facts: [{id: f1, en: ${yaml('-1+1')}, zh: ${yaml(IMG)}}]}`,
      ].join('\n'),
    );
    const out = path.join(dir, 'review');
    const r = await runCli(['review', path.join(dir, 'x.entries.yaml'), '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const html = await readFile(path.join(out, 'index.html'), 'utf8');
    expectInert(html);
    expect(html).toContain('cat[U+202E]gnp.exe');
    const rows = parse<Record<string, string>>(
      await readFile(path.join(out, 'entries.csv'), 'utf8'),
      {
        columns: true,
      },
    );
    expect(rows[0]).toMatchObject({ archive: `'${FORMULA}`, title_en: IMG, credit: SCRIPT });
    expect(rows[0]!.facts_en).toBe('f1: -1+1');
  });
});
