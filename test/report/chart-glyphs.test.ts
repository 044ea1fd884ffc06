/**
 * Tibetan and Uyghur in PNG charts: each character of a Tibetan and a Uyghur label is drawn alone
 * through the chart renderer (vega → SVG → librsvg via sharp, fonts through fontconfig) and its
 * ink's bounding box compared with that of a private-use character (U+E000), which no font has:
 * a character no font covers is drawn as the same missing-glyph box (pango's box with the code
 * point's four hex digits), so the same bounding box means a box, not a glyph (vowel signs are
 * left out: drawn alone they sit on a placeholder). The check is
 * itself checked: when fontconfig offers only a Latin font (Noto Sans copied into a temporary
 * folder, FONTCONFIG_FILE read afresh by a child process) it finds every character a box. Run
 * with FONTCONFIG_FILE pointing at a configuration without the Tibetan font, this file fails.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { heavyLimit } from '../helpers/limits.js';
import { ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// Limits that grow with the load (test/helpers/limits.ts): 126 s a test on a quiet
// machine (this file's former fixed limits, rounded up), more on a busy one.
vi.setConfig({ testTimeout: heavyLimit(7) });

const run = promisify(execFile);
const LATIN_FONT = '/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf';
const LABELS = { bo: 'བོད་ཡིག', ug: 'ئۇيغۇرچە' };

const MISSING = '\uE000';

/** In the child: each text as its own one-mark chart; the bounding box of its dark pixels. */
const CHILD = `
import sharp from 'sharp';
import { renderChart } from ${JSON.stringify(path.join(ROOT, 'src', 'report', 'chart.ts'))};
const out = [];
for (const t of JSON.parse(process.argv[1])) {
  const spec = { width: 80, height: 50, data: { values: [{ t }] },
    mark: { type: 'text', fontSize: 24 }, encoding: { text: { field: 't' } } };
  const png = await (await renderChart(spec, { scale: 1 })).png;
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  let [x0, y0, x1, y1] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < info.height; y++)
    for (let x = 0; x < info.width; x++)
      if (data[(y * info.width + x) * info.channels] < 128)
        [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
  out.push(x1 < 0 ? 'empty' : [x0, y0, x1, y1].join(','));
}
process.stdout.write(JSON.stringify(out));
`;

/** Each text's ink box, drawn in a child process with `env`. */
async function inkBoxes(texts: string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', CHILD, JSON.stringify(texts)],
    { cwd: ROOT, env, timeout: 60_000 },
  );
  return JSON.parse(stdout) as string[];
}

/** A fontconfig file whose only font is a Latin one. */
async function latinOnly(): Promise<string> {
  const dir = await tempDir('stimkit-fonts-');
  await mkdir(path.join(dir, 'fonts'));
  await copyFile(LATIN_FONT, path.join(dir, 'fonts', path.basename(LATIN_FONT)));
  const conf = path.join(dir, 'fonts.conf');
  await writeFile(
    conf,
    `<?xml version="1.0"?>\n<fontconfig><dir>${dir}/fonts</dir><cachedir>${dir}/cache</cachedir></fontconfig>\n`,
  );
  return conf;
}

describe('Tibetan and Uyghur labels in PNG charts', () => {
  // spacing characters: a vowel sign drawn alone sits on a drawn placeholder, box or not
  const chars = [...new Set([...LABELS.bo, ...LABELS.ug])].filter((c) => !/\p{M}/u.test(c));
  /** The characters drawn as the missing-glyph box, with their code points. */
  const boxed = async (env: NodeJS.ProcessEnv) => {
    const [box, ...drawn] = await inkBoxes([MISSING, ...chars], env);
    expect(box).not.toBe('empty');
    return chars
      .filter((_, i) => drawn[i] === box || drawn[i] === 'empty')
      .map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
  };

  it('draws every character of both labels with a glyph, none as a box', async () => {
    expect(await boxed(process.env)).toEqual([]);
  });

  it('finds every character a box when fontconfig has only a Latin font', async () => {
    const latin = await boxed({ ...process.env, FONTCONFIG_FILE: await latinOnly() });
    expect(latin.length).toBe(chars.length);
  });
});
