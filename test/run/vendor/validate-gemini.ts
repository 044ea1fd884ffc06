/**
 * A strict reading of the Gemini API request (`POST /v1beta/models/{model}:generateContent`), from
 * the vendor's definitions: the REST reference of GenerateContentRequest, Content, Part,
 * GenerationConfig, ThinkingConfig and SafetySetting (https://ai.google.dev/api/generate-content)
 * and the official SDK's types (@google/genai 3.3.0). The key goes in `x-goog-api-key`; a `key`
 * in the query string is refused here (it would reach logs). Returns the first deviation, or null.
 */
import { isBase64 } from './image-bytes.js';
type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const BODY_KEYS = [
  'contents',
  'tools',
  'toolConfig',
  'safetySettings',
  'systemInstruction',
  'generationConfig',
  'cachedContent',
];
/** GenerationConfig fields (@google/genai 3.3.0). */
const CONFIG_KEYS = [
  'stopSequences',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'candidateCount',
  'maxOutputTokens',
  'temperature',
  'topP',
  'topK',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
  'enableEnhancedCivicAnswers',
  'speechConfig',
  'thinkingConfig',
  'mediaResolution',
  'audioTimestamp',
];
const PART_DATA = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
];
const THRESHOLDS = [
  'HARM_BLOCK_THRESHOLD_UNSPECIFIED',
  'BLOCK_LOW_AND_ABOVE',
  'BLOCK_MEDIUM_AND_ABOVE',
  'BLOCK_ONLY_HIGH',
  'BLOCK_NONE',
  'OFF',
];

const unknownName = (o: Json, allowed: string[], where: string): string | null => {
  const bad = Object.keys(o).find((k) => !allowed.includes(k));
  return bad
    ? `Invalid JSON payload received. Unknown name "${bad}" at '${where}': Cannot find field.`
    : null;
};

function part(p: unknown, where: string): string | null {
  if (!isObj(p)) return `${where}: a Part must be an object`;
  const e = unknownName(p, [...PART_DATA, 'thought', 'thoughtSignature'], where);
  if (e) return e;
  const data = PART_DATA.filter((k) => k in p);
  if (data.length !== 1) return `${where}: a Part holds exactly one of ${PART_DATA.join(', ')}`;
  if ('text' in p && typeof p.text !== 'string') return `${where}.text: must be a string`;
  if ('inlineData' in p) {
    const d = p.inlineData;
    if (!isObj(d) || typeof d.mimeType !== 'string' || typeof d.data !== 'string')
      return `${where}.inlineData: mimeType and data are required`;
    if (!isBase64(d.data))
      return `${where}.inlineData.data: Invalid value (bytes), base64 decoding failed`;
    return unknownName(d, ['mimeType', 'data', 'displayName'], `${where}.inlineData`);
  }
  return null;
}

function content(c: unknown, where: string, roles: string[]): string | null {
  if (!isObj(c)) return `${where}: must be a Content object`;
  const e = unknownName(c, ['role', 'parts'], where);
  if (e) return e;
  if (c.role !== undefined && (typeof c.role !== 'string' || !roles.includes(c.role)))
    return `${where}.role: Please use a valid role: user, model.`;
  if (!Array.isArray(c.parts) || c.parts.length === 0)
    return `${where}.parts: contents.parts must not be empty`;
  for (const [i, p] of c.parts.entries()) {
    const q = part(p, `${where}.parts[${i}]`);
    if (q) return q;
  }
  return null;
}

function config(g: unknown): string | null {
  if (!isObj(g)) return 'generationConfig: must be an object';
  const e = unknownName(g, CONFIG_KEYS, 'generation_config');
  if (e) return e;
  const num = (k: string, lo: number, hi: number, int = false) => {
    const v = g[k];
    if (v === undefined) return null;
    return typeof v !== 'number' || v < lo || v > hi || (int && !Number.isInteger(v))
      ? `generationConfig.${k}: out of range`
      : null;
  };
  const bad =
    num('temperature', 0, 2) ??
    num('topP', 0, 1) ??
    num('topK', 1, 1e9, true) ??
    num('maxOutputTokens', 1, 1e9, true) ??
    num('seed', -(2 ** 31), 2 ** 31 - 1, true);
  if (bad) return bad;
  const t = g.thinkingConfig;
  if (t === undefined) return null;
  if (!isObj(t)) return 'generationConfig.thinkingConfig: must be an object';
  if (
    t.thinkingBudget !== undefined &&
    (!Number.isInteger(t.thinkingBudget) || (t.thinkingBudget as number) < -1)
  )
    return 'thinkingConfig.thinkingBudget: must be an integer >= -1';
  if (t.includeThoughts !== undefined && typeof t.includeThoughts !== 'boolean')
    return 'thinkingConfig.includeThoughts: must be a boolean';
  return unknownName(
    t,
    ['thinkingBudget', 'includeThoughts', 'thinkingLevel'],
    'generation_config.thinking_config',
  );
}

/** The first problem of a request (URL, headers and body), or null. */
export function geminiProblem(
  url: string,
  headers: Record<string, string | string[] | undefined>,
  body: unknown,
): string | null {
  const u = new URL(url, 'http://x');
  if (!/^\/v1beta\/models\/[A-Za-z0-9._-]+:generateContent$/.test(u.pathname))
    return `no such method: ${u.pathname}`;
  if (u.searchParams.has('key')) return 'the API key must not be in the URL (use x-goog-api-key)';
  if (headers.authorization !== undefined) return 'authorization: use x-goog-api-key';
  if (!String(headers['content-type'] ?? '').startsWith('application/json'))
    return 'content-type must be application/json';
  if (!isObj(body)) return 'body must be a GenerateContentRequest object';
  const e = unknownName(body, BODY_KEYS, '(root)');
  if (e) return e;
  if (!Array.isArray(body.contents) || body.contents.length === 0)
    return '* GenerateContentRequest.contents: contents is not specified';
  for (const [i, c] of body.contents.entries()) {
    const p = content(c, `contents[${i}]`, ['user', 'model']);
    if (p) return p;
  }
  if (body.systemInstruction !== undefined) {
    const p = content(body.systemInstruction, 'system_instruction', ['user', 'system']);
    if (p) return p;
  }
  if (body.generationConfig !== undefined) {
    const p = config(body.generationConfig);
    if (p) return p;
  }
  if (body.safetySettings !== undefined) {
    if (!Array.isArray(body.safetySettings)) return 'safetySettings: must be a list';
    for (const s of body.safetySettings)
      if (
        !isObj(s) ||
        !/^HARM_CATEGORY_[A-Z_]+$/.test(String(s.category)) ||
        !THRESHOLDS.includes(String(s.threshold))
      )
        return 'safetySettings: Invalid value at safety_settings (HarmCategory / HarmBlockThreshold)';
  }
  return null;
}
