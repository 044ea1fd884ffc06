/**
 * A provider is three pure pieces around the one transport: `build` makes the request body of a
 * conversation (conversation.ts; images as `sha256:` references, so the hash is the same on every machine), `http` names
 * the URL and headers (the key only ever in a header), `read` classifies a 2xx reply body; and the
 * hooks that say what else differs between vendors: the batch file format, what the vendor refuses
 * before anything is sent, the output tokens a reply can bill, and the settings that shape a request.
 */
import type { Trial } from '../../bundle/format.js';
import type { Conversation } from '../conversation.js';
import type { ModelSpec } from '../../models/schema.js';
import type { Verdict } from '../classify.js';
import type { ImageStyle } from '../images.js';

/** What building a request gives: the body (images as references), the fields dropped, its hash. */
export interface BuiltBody {
  body: Record<string, unknown>;
  /** Sampling fields the trial sets that this model's request leaves out (e.g. `seed`). */
  dropped: string[];
  /** sha256 of the canonical body (images as `sha256:` references). */
  sha256: string;
}

/** Where a request goes and with which headers (credentials only here, never in the body or URL). */
interface HttpTarget {
  url: string;
  headers: Record<string, string>;
}

/** How one HTTP provider's requests and replies look on the wire. */
export interface ProviderWire {
  name: 'openai' | 'anthropic' | 'gemini';
  /** How image data is carried in a sent body. */
  imageStyle: ImageStyle;
  build(conversation: Conversation, model: ModelSpec): BuiltBody;
  http(endpoint: string, model: ModelSpec, apiKey: string | null): HttpTarget;
  /** Read a 2xx reply body (parsed JSON). */
  read(json: unknown, status: number): Verdict;
}

/** A parsed line of a batch file. */
export type BatchLine = Record<string, unknown>;

/** A vendor's batch file format: one request per input line, one result per output line. */
export interface BatchFormat {
  /** The field of a line that holds the request id (`custom_id`, Gemini `key`). */
  idField: 'custom_id' | 'key';
  /** What an output line looks like, for a refusal of a line in another format. */
  outputShape: string;
  /** One input line for a request body (images already materialized). */
  line(id: string, body: unknown): BatchLine;
  /** Whether a parsed output line is in this format. */
  owns(line: BatchLine): boolean;
  /** The model that served an output line, when the line says. */
  servedOf(line: BatchLine): unknown;
  /** The verdict of an output line (`read`: the provider's reader of a 2xx body). */
  verdict(line: BatchLine, raw: string, read: ProviderWire['read']): Verdict;
  /** The vendor's batch endpoint at a model's base URL (what batch results are recorded under). */
  endpoint(base: string, model: ModelSpec): string;
}

/** What differs between vendors beyond the wire. */
export interface ProviderHooks {
  /** The endpoint of a model that names none (a native provider's public API), or null. */
  defaultEndpoint: string | null;
  batch: BatchFormat;
  /**
   * Refuse (a StimkitError) a model's trials the vendor would refuse, before anything is sent.
   * `imageTrials`: the trials of the study's model sets that show an image, whatever the
   * model's modalities.
   */
  preflight(model: ModelSpec, trials: readonly Trial[], imageTrials: () => readonly Trial[]): void;
  /** The output limit a conversation is sent with (what a reply can bill), or undefined: none sent. */
  outputCap(conversation: Conversation, model: ModelSpec): number | undefined;
  /** The settings of a model that shape its requests (what a rerun must keep to resume a run). */
  profile(model: ModelSpec): Record<string, unknown>;
}

/** One HTTP provider. */
export type Provider = ProviderWire & ProviderHooks;
