/**
 * A provider is three pure pieces around the one transport: `build` makes the request body of a
 * conversation (conversation.ts; images as `sha256:` references, so the hash is the same on every machine), `http` names
 * the URL and headers (the key only ever in a header), `read` classifies a 2xx reply body.
 */
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

/** One HTTP provider. */
export interface Provider {
  name: 'openai' | 'anthropic' | 'gemini';
  /** How image data is carried in a sent body. */
  imageStyle: ImageStyle;
  build(conversation: Conversation, model: ModelSpec): BuiltBody;
  http(endpoint: string, model: ModelSpec, apiKey: string | null): HttpTarget;
  /** Read a 2xx reply body (parsed JSON). */
  read(json: unknown, status: number): Verdict;
}
