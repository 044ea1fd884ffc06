/** `provider: openai`: OpenAI-compatible chat completions (request.ts builds, classify.ts reads). */
import { readCompletion } from '../classify.js';
import { buildRequest } from '../request.js';
import { chatUrl } from '../transport.js';
import type { ProviderWire } from './types.js';

export const openai: ProviderWire = {
  name: 'openai',
  imageStyle: 'data_url',
  build: (conv, model) => buildRequest(conv, model),
  http(endpoint, _model, apiKey) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    return { url: chatUrl(endpoint), headers };
  },
  read: readCompletion,
};
