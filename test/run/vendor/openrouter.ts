/**
 * A strict stand-in for OpenRouter's chat completions on 127.0.0.1, with scripted serving routes.
 * Sources:
 * - the request's `provider` object and its fields (`order`, `allow_fallbacks`, `only`, `ignore`,
 *   `require_parameters`, `data_collection`, `zdr`, `enforce_distillable_text`, `quantizations`,
 *   `sort`, `max_price`): https://openrouter.ai/docs/docs/routing/provider-selection — any other
 *   field is rejected with a 400, as is a field of the wrong type;
 * - the reply: OpenAI's chat completion with OpenRouter's `provider` (the upstream provider that
 *   served the request) and an `id` of the form `gen-…`:
 *   https://openrouter.ai/docs/api-reference/overview ("Responses");
 * - errors `{error: {code, message, metadata}}` with the HTTP status of `code`, and 403 "Your
 *   chosen model requires moderation and your input was flagged" with moderation metadata
 *   (`reasons`, `flagged_input`, `provider_name`, `model_slug`):
 *   https://openrouter.ai/docs/api/reference/errors-and-debugging.
 * Which provider serves a request: the first of `only`, else of `order`; with
 * `allow_fallbacks: false` and a route the script does not know, 503 ("no available model
 * provider that meets your routing requirements"). `script(route, k)` decides the reply.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { trialIndex } from '../fixture.js';

/** What a route does with one request. */
export type RouteAction =
  | { kind: 'ok'; text?: string }
  | { kind: 'moderation' }
  | { kind: 'empty_stop'; text?: string }
  | { kind: 'refusal'; refusal: string }
  | { kind: 'content_filter' };

export interface OpenRouterServer {
  url: string;
  requests: Array<{ route: string; k: number; body: any }>;
  rejected: string[];
  close: () => Promise<void>;
}

const STRINGS = ['order', 'only', 'ignore', 'quantizations'];
const BOOLS = ['allow_fallbacks', 'require_parameters', 'zdr', 'enforce_distillable_text'];
const OTHER = ['data_collection', 'sort', 'max_price'];

/** Why a request's `provider` object is not OpenRouter's, or null. */
function providerProblem(p: unknown): string | null {
  if (p === undefined) return null;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) return 'provider must be an object';
  for (const [k, v] of Object.entries(p)) {
    if (STRINGS.includes(k)) {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
        return `provider.${k} must be an array of strings`;
    } else if (BOOLS.includes(k)) {
      if (typeof v !== 'boolean') return `provider.${k} must be a boolean`;
    } else if (!OTHER.includes(k)) return `provider.${k} is not a provider routing field`;
  }
  return null;
}

function promptOf(body: any): string {
  const c = body?.messages?.find((m: any) => m.role === 'user')?.content;
  if (typeof c === 'string') return c;
  return (c ?? []).map((p: any) => (p.type === 'text' ? p.text : '')).join('');
}

function completion(n: number, route: string, model: string, a: RouteAction) {
  const message: Record<string, unknown> = { role: 'assistant', content: '' };
  let finish = 'stop';
  if (a.kind === 'ok') message.content = a.text ?? 'an answer';
  else if (a.kind === 'empty_stop') message.content = a.text ?? '';
  else if (a.kind === 'refusal') Object.assign(message, { content: null, refusal: a.refusal });
  else if (a.kind === 'content_filter') finish = 'content_filter';
  return {
    id: `gen-${n}`,
    provider: route,
    model,
    object: 'chat.completion',
    created: 1_700_000_000,
    system_fingerprint: `fp_${route.toLowerCase()}`,
    choices: [{ index: 0, finish_reason: finish, native_finish_reason: finish, message }],
    usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
  };
}

/** Start the server; `routes` are the provider slugs it serves. */
export async function startOpenRouter(
  routes: readonly string[],
  script: (route: string, k: number) => RouteAction,
): Promise<OpenRouterServer> {
  const requests: OpenRouterServer['requests'] = [];
  const rejected: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const n = requests.length + rejected.length;
      const send = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req-${n}` });
        res.end(JSON.stringify(value));
      };
      const fail = (code: number, message: string, metadata?: unknown) =>
        send(code, { error: { code, message, ...(metadata ? { metadata } : {}) } });
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return fail(400, 'invalid JSON');
      }
      const problem =
        req.url !== '/api/v1/chat/completions'
          ? `no route ${req.url}`
          : typeof body?.model !== 'string' || !Array.isArray(body?.messages)
            ? 'model and messages are required'
            : providerProblem(body.provider);
      if (problem) {
        rejected.push(problem);
        return fail(400, problem);
      }
      const p = body.provider ?? {};
      const route: string | undefined = p.only?.[0] ?? p.order?.[0] ?? routes[0];
      if (!route || !routes.includes(route))
        return fail(503, 'No available model provider that meets your routing requirements');
      const k = trialIndex(promptOf(body));
      requests.push({ route, k, body });
      const a = script(route, k);
      if (a.kind === 'moderation')
        return fail(403, 'Your chosen model requires moderation and your input was flagged', {
          reasons: ['political'],
          flagged_input: promptOf(body).slice(0, 100),
          provider_name: route,
          model_slug: body.model,
        });
      send(200, completion(n, route, body.model, a));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    requests,
    rejected,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
