/**
 * The serving route that answered a request, as the ledger records it per result: OpenRouter's
 * `provider` field of the completion (the upstream provider that served it), the response id
 * (chat completions and Anthropic `id`, Gemini `responseId`), the request id of a response header
 * (OpenAI and most compatible servers `x-request-id`, Anthropic `request-id`, Azure
 * `apim-request-id`), the region where a header names it (Azure `x-ms-region`) and the endpoint
 * replica the request went to. The served model and `system_fingerprint` are read with the reply.
 */

/** Response headers that name a route, lower case; transport.ts keeps only these. */
const ROUTE_HEADERS = ['x-request-id', 'request-id', 'apim-request-id', 'x-ms-region'] as const;

/** The route fields of a result (null where the reply did not say). */
export interface Route {
  /** The upstream provider a gateway names in its reply (OpenRouter's `provider`). */
  route_provider: string | null;
  /** The reply's own id. */
  response_id: string | null;
  /** The request id of a response header. */
  request_id: string | null;
  /** The serving region, where a header names it. */
  region: string | null;
}

/** No route known. */
export const NO_ROUTE: Route = {
  route_provider: null,
  response_id: null,
  request_id: null,
  region: null,
};

/**
 * The route headers of a reply (lower-case names), from a fetch `Headers`, each WHOLE: a server
 * may echo the key in one (after 170 characters of `x-request-id`); the ledger redacts each
 * value whole, then cuts it (ledger/write.ts), never the other way round.
 */
export function routeHeaders(headers: {
  get: (name: string) => string | null;
}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of ROUTE_HEADERS) {
    const v = headers.get(h);
    if (v !== null && v !== '') out[h] = v;
  }
  return out;
}

/** The request id and region of a reply's route headers. */
export function headerRoute(
  headers: Record<string, string> | undefined,
): Pick<Route, 'request_id' | 'region'> {
  const h = headers ?? {};
  return {
    request_id: h['x-request-id'] ?? h['request-id'] ?? h['apim-request-id'] ?? null,
    region: h['x-ms-region'] ?? null,
  };
}
