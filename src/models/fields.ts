/**
 * The fields of the models file that every provider's entry has (schema.ts), and their types:
 * base URLs without credentials, key variable names, the sampling map, Gemini's safety settings.
 */
import { z } from 'zod';

/**
 * A base URL: http(s), with no credentials in it. User info (`https://user:pass@host`) and a
 * query string or fragment (`?key=…`) are refused, because the endpoint is recorded in the
 * ledger and printed; keys go in the variable `api_key_env` names. The message never repeats
 * the URL (it may hold a secret).
 */
const HttpUrl = z
  .string()
  .regex(/^https?:\/\/[^\s]+$/, 'an http(s) base URL such as http://127.0.0.1:8000/v1')
  .refine((u) => !/^https?:\/\/[^/?#]*@/.test(u), {
    message:
      'an endpoint must not carry credentials (user:password@ before the host): the endpoint is recorded in the ledger; put the key in the environment variable api_key_env names',
    params: { secret: true },
  })
  .refine((u) => !/[?#]/.test(u), {
    message:
      'an endpoint is a base URL without a query string or fragment (a ?key=… would be recorded in the ledger); put the key in the environment variable api_key_env names',
    params: { secret: true },
  })
  .describe(
    'Base URL of an OpenAI-compatible server, up to and including /v1; requests go to <endpoint>/chat/completions. No user:password@ and no query string: keys go in api_key_env.',
  );

/** Names of environment variables: letters, digits and underscores, not starting with a digit. */
const EnvVarName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_]*$/,
    'api_key_env takes the NAME of an environment variable (letters, digits, _; e.g. OPENROUTER_API_KEY), never the key itself',
  )
  .refine((v) => !looksLikeKey(v), {
    message:
      'api_key_env looks like an API key, not the name of an environment variable (it starts like a key or is long and random); put the key in a variable (export MY_API_KEY=…) and give its name here',
    params: { secret: true },
  })
  .describe('Name of the environment variable that holds the API key. Never the key itself.');

/**
 * Whether a value looks like an API key rather than a variable name: a vendor key prefix
 * (`sk-`, `sk_`, `AIza`, `hf_`, `gsk_`, AWS `AKIA`/`ASIA`, …), 32+ characters mixing lower case
 * and digits, or 20+ capitals and digits without an underscore (an AWS key id, a base32 secret).
 */
function looksLikeKey(v: string): boolean {
  if (/^(sk[-_]|sk$|pk[-_]|rk[-_]|AIza|hf_|gsk_|xai-|ghp_|glpat-|AKIA|ASIA)/.test(v)) return true;
  if (/^[A-Z0-9]{20,}$/.test(v)) return true;
  return v.length >= 32 && /[a-z]/.test(v) && /[0-9]/.test(v);
}

/**
 * How each sampling field of a trial reaches the server. The defaults are vLLM's: every field in
 * the body, `top_k` as is, `thinking: false` as `chat_template_kwargs: {enable_thinking: false}`.
 * `drop` leaves a field out of the request; a dropped field the trial sets is recorded in the ledger.
 */
const SamplingMap = z
  .strictObject({
    temperature: z.enum(['send', 'drop']).default('send'),
    top_p: z.enum(['send', 'drop']).default('send'),
    top_k: z
      .enum(['send', 'drop'])
      .default('send')
      .describe(
        'send: `top_k` in the body (vLLM); drop: leave it out (hosted APIs that reject it).',
      ),
    max_tokens: z.enum(['max_tokens', 'max_completion_tokens', 'drop']).default('max_tokens'),
    seed: z.enum(['send', 'drop']).default('send'),
    thinking: z
      .enum(['chat_template_kwargs', 'drop'])
      .default('chat_template_kwargs')
      .describe(
        'chat_template_kwargs: thinking: false is sent as chat_template_kwargs.enable_thinking (vLLM, Qwen3 and GLM templates); drop: leave it out.',
      ),
  })
  .describe('How the bundle sampling maps onto this server (defaults: vLLM).');

/** Gemini safety setting categories and thresholds (HarmCategory, HarmBlockThreshold). */
export const GeminiSafetySetting = z.strictObject({
  category: z
    .string()
    .regex(/^HARM_CATEGORY_[A-Z_]+$/, 'a HarmCategory such as HARM_CATEGORY_HATE_SPEECH'),
  threshold: z.enum([
    'HARM_BLOCK_THRESHOLD_UNSPECIFIED',
    'BLOCK_LOW_AND_ABOVE',
    'BLOCK_MEDIUM_AND_ABOVE',
    'BLOCK_ONLY_HIGH',
    'BLOCK_NONE',
    'OFF',
  ]),
});

const MODALITIES = ['text', 'image'] as const;

/** Reply bodies larger than this (MiB) fail the attempt as `response_too_large` unless a model sets `max_response_mib`. */
export const DEFAULT_MAX_RESPONSE_MIB = 4;

/**
 * Each field named by an id, so that the JSON Schema defines it once (in `$defs`) for the four
 * providers' entries. `meta` returns the schema it is called on with the id added: the types stay.
 */
export function named<T extends Record<string, z.ZodType>>(shape: T): T {
  const entries = Object.entries(shape).map(([k, s]) => [k, s.meta({ id: `model.${k}` })]);
  return Object.fromEntries(entries) as T;
}

/** The fields of every model, whatever its provider. */
export const commonFields = named({
  name: z
    .string()
    .min(1)
    .max(120)
    .describe('The model name as the study model sets list it; the ledger key.'),
  role: z
    .enum(['respondent', 'judge'])
    .default('respondent')
    .describe('respondent: answers trials; judge: scores responses (used by the score stage).'),
  endpoint: z
    .union([HttpUrl, z.array(HttpUrl).min(1)])
    .optional()
    .describe('One base URL, or a list of replicas used in turn.'),
  api_model: z
    .string()
    .min(1)
    .optional()
    .describe('The model id the server serves (the request `model` field); default: name.'),
  api_key_env: EnvVarName.optional(),
  origin: z
    .string()
    .regex(/^[A-Z]{2}$/, 'an ISO 3166 two-letter country code such as CN, US, FR')
    .optional(),
  vendor: z.string().optional(),
  revision: z.string().optional().describe('Checkpoint or snapshot identifier, for the record.'),
  modalities: z
    .array(z.enum(MODALITIES))
    .min(1)
    .default(['text', 'image'])
    .describe('A model without image is never sent trials that show an image.'),
  paradigms: z
    .array(z.string())
    .min(1)
    .optional()
    .describe('Only run trials of these paradigms (default: all).'),
  concurrency: z
    .number()
    .int()
    .min(1)
    .max(4096)
    .default(8)
    .describe(
      'Requests in flight at most (lowered on repeated 429s, raised again as calls succeed).',
    ),
  timeout_s: z
    .number()
    .positive()
    .max(86_400)
    .default(600)
    .describe('Seconds before a request counts as timed out (and is retried).'),
  max_tokens: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      'Output token limit for trials that set none (anthropic requires one: from the trial or here).',
    ),
  max_response_mib: z
    .number()
    .positive()
    .max(1024)
    .default(DEFAULT_MAX_RESPONSE_MIB)
    .describe(
      'Largest reply body read, in MiB; a larger reply fails the attempt as response_too_large (recorded, not retried).',
    ),
  extra_body: z
    .record(z.string(), z.unknown())
    .default({})
    .describe('Fields merged into every request body (after the sampling fields).'),
  sampling: SamplingMap.default(SamplingMap.parse({})),
});
