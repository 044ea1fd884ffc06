/**
 * What differs between the request a batch line answered and the request the models file makes
 * now, named setting by setting, for E_BATCH_REQUEST_CHANGED. An output line shows only the model
 * that served it; the export's input line (`batch import --requests FILE…`) shows the whole body
 * sent. Both bodies are flattened to their leaves and compared; each differing leaf is named by
 * the setting that makes it: the model id, max_tokens, temperature, top_p, top_k, seed, routing,
 * the prompt text, an image (its size, format and bytes, decoded from the data), or its path.
 */
import sharp from '../core/sharp.js';
import { readTextLines } from '../core/fsio.js';

type Leaves = Map<string, unknown>;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every leaf of a JSON value by its dotted path (`messages.0.content.1.image_url.url`). */
function leaves(v: unknown, prefix: string, out: Leaves): Leaves {
  if (Array.isArray(v)) v.forEach((x, i) => leaves(x, prefix ? `${prefix}.${i}` : String(i), out));
  else if (isObj(v))
    for (const [k, x] of Object.entries(v)) leaves(x, prefix ? `${prefix}.${k}` : k, out);
  else out.set(prefix, v);
  return out;
}

/** The setting a body path belongs to (by each provider's body: OpenAI, Anthropic, Gemini). */
const SETTINGS: ReadonlyArray<[RegExp, string]> = [
  [/^model$/, 'model id (api_model)'],
  [/^(max_tokens|max_completion_tokens|generationConfig\.maxOutputTokens)$/, 'max_tokens'],
  [/^(temperature|generationConfig\.temperature)$/, 'temperature'],
  [/^(top_p|generationConfig\.topP)$/, 'top_p'],
  [/^(top_k|generationConfig\.topK)$/, 'top_k'],
  [/^(seed|generationConfig\.seed)$/, 'seed'],
  [/^provider(\.|$)/, 'routing (provider)'],
  [/^(thinking|chat_template_kwargs|generationConfig\.thinkingConfig)(\.|$)/, 'thinking'],
  [/^(messages|contents|system|systemInstruction)(\.|$)/, 'prompt text'],
];

/** A base64 image in a body: an OpenAI data URL, or Anthropic's / Gemini's base64 `data`. */
function imageData(p: string, v: unknown): string | null {
  if (typeof v !== 'string') return null;
  if (p.endsWith('.url') && v.startsWith('data:image/')) return v.slice(v.indexOf(',') + 1);
  return /\.(source|inline_data|inlineData)\.data$/.test(p) ? v : null;
}

const shown = (v: unknown): string => {
  if (v === undefined) return 'absent';
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…"` : s;
};

/** An image's size, format and bytes from its base64 data. */
async function imageText(b64: string | null): Promise<string> {
  if (b64 === null) return 'absent';
  const bytes = Buffer.from(b64, 'base64');
  const m = await sharp(bytes)
    .metadata()
    .catch(() => null);
  return m ? `${m.width}×${m.height} ${m.format}, ${bytes.length} bytes` : `${bytes.length} bytes`;
}

/** One differing setting: its name and its value in the export and now. */
export interface SettingDiff {
  setting: string;
  exported: string;
  now: string;
}

/** The settings whose values differ between the exported body and the body made now, in body order. */
export async function diffBodies(exported: unknown, now: unknown): Promise<SettingDiff[]> {
  const [a, b] = [leaves(exported, '', new Map()), leaves(now, '', new Map())];
  const out = new Map<string, SettingDiff>();
  let image = 0;
  for (const p of new Set([...a.keys(), ...b.keys()])) {
    const [x, y] = [a.get(p), b.get(p)];
    const [ix, iy] = [imageData(p, x), imageData(p, y)];
    if (ix !== null || iy !== null) image++;
    if (x === y) continue;
    if (ix !== null || iy !== null) {
      const setting = `image ${image} (the image block: max_side, format, quality)`;
      out.set(setting, { setting, exported: await imageText(ix), now: await imageText(iy) });
      continue;
    }
    // an image's MIME type goes with its data (named above); its OpenAI detail is the image block's
    if (/\.(media_type|mime_type|mimeType)$/.test(p)) continue;
    const setting = p.endsWith('.image_url.detail')
      ? 'image detail (the image block)'
      : (SETTINGS.find(([re]) => re.test(p))?.[1] ?? p);
    if (!out.has(setting)) out.set(setting, { setting, exported: shown(x), now: shown(y) });
  }
  return [...out.values()];
}

/** The body of the input line with this id in the export's input files (streamed), or undefined. */
export async function exportedBody(
  files: readonly string[],
  id: string,
): Promise<{ file: string; line: number; body: unknown } | undefined> {
  for (const file of files) {
    let n = 0;
    for await (const raw of readTextLines(file, 'E_BATCH_READ')) {
      n++;
      if (!raw.includes(id)) continue;
      let v: unknown;
      try {
        v = JSON.parse(raw);
      } catch {
        continue;
      }
      if (!isObj(v) || (v.custom_id ?? v.key) !== id) continue;
      return { file, line: n, body: v.body ?? v.params ?? v.request };
    }
  }
  return undefined;
}
