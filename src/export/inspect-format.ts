/**
 * The Inspect eval log (`.eval`, log format version 2) as stimkit writes it: the version of
 * Inspect followed, and the shapes of the JSON files inside the ZIP. Inspect's own types are the
 * source of truth for these shapes (`src/inspect_ai/log/_log.py`, read from its OpenAPI
 * description `src/inspect_ai/_view/inspect-openapi.json` at the commit below, which the tests
 * validate every written file against); the interfaces here are the subset stimkit fills.
 * docs/formats/inspect.md describes the mapping.
 */

/** The Inspect release and commit whose log format this writer follows. */
export const INSPECT_FOLLOWED = {
  log_format_version: 2,
  inspect_ai: '0.3.260-7-g499e6152e',
  commit: '499e6152e7b8fc8cbd8ac5283536572aa6e4ab17',
  schema: 'src/inspect_ai/_view/inspect-openapi.json',
} as const;

/** The export folder's header (`export.json`) and the record in each log's metadata. */
export const EXPORT_FORMAT = 'stimkit.export-inspect';
export const EXPORT_VERSION = 1;
export const EXPORT_HEADER = 'export.json';

/** Inspect's `StopReason`. */
export type StopReason = 'stop' | 'max_tokens' | 'content_filter' | 'unknown';

/** Inspect's `ModelUsage`. */
export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  reasoning_tokens?: number;
  total_cost?: number;
}

/** Inspect's `Score` (`value` is never null: a cell without a value is left out). */
export interface InspectScore {
  value: string | number | boolean;
  answer?: string;
  explanation?: string;
  metadata?: Record<string, unknown>;
  history: [];
}

type Content =
  | { type: 'text'; text: string; refusal?: true }
  | { type: 'image'; image: string; detail: 'auto' }
  | { type: 'reasoning'; reasoning: string; summary?: string; redacted: boolean };

/** Inspect's `ChatMessageUser` / `ChatMessageSystem` / `ChatMessageAssistant`. */
export interface ChatMessage {
  id: string;
  role: 'system' | 'user' | 'assistant';
  content: Content[];
  source?: 'input' | 'generate';
  model?: string;
}

/** Inspect's `ModelOutput` with one choice. */
interface ModelOutput {
  model: string;
  choices: Array<{ message: ChatMessage; stop_reason: StopReason }>;
  completion: string;
  usage?: ModelUsage;
  time?: number;
  error?: string;
  metadata: Record<string, unknown>;
}

/** Inspect's `EvalSample`. */
export interface EvalSample {
  id: string;
  epoch: number;
  input: ChatMessage[];
  target: string;
  messages: ChatMessage[];
  output: ModelOutput;
  scores: Record<string, InspectScore>;
  metadata: Record<string, unknown>;
  store: Record<string, never>;
  events: [];
  model_usage: Record<string, ModelUsage>;
  role_usage: Record<string, never>;
  total_time?: number;
  working_time?: number;
  completed_at?: string;
  uuid: string;
  error?: { message: string; traceback: string; traceback_ansi: string };
  attachments: Record<string, string>;
}

/** Inspect's `EvalSampleSummary` (summaries.json). */
export interface EvalSampleSummary {
  id: string;
  epoch: number;
  input: string;
  target: string;
  metadata: Record<string, unknown>;
  scores: Record<string, InspectScore>;
  model_usage: Record<string, ModelUsage>;
  role_usage: Record<string, never>;
  total_time?: number;
  working_time?: number;
  completed_at?: string;
  uuid: string;
  error?: string;
  message_count: number;
  completed: true;
}
