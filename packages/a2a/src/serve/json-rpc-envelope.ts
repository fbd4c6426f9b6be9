/** JSON-RPC 2.0's own error codes, which A2A keeps (A2A 1.0 §5.4). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

/** A JSON-RPC error answer: what a client reads whatever went wrong. */
export function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: '2.0', id: isId(id) ? id : null, error: { code, message } };
}

function isId(value: unknown): value is string | number | null {
  return value === null || typeof value === 'string' || typeof value === 'number';
}

/**
 * Why `body` is not a JSON-RPC 2.0 request, or undefined when it is one: an object with
 * `jsonrpc: "2.0"`, a string `method`, and an `id` that is a string, a number or null (a batch is
 * not taken: A2A sends one request per call). Checked before the SDK's transport sees it, which
 * would answer these as bad params.
 */
export function envelopeProblem(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return Array.isArray(body)
      ? 'a batch is not taken: send one JSON-RPC request per call'
      : 'the body must be a JSON-RPC request object';
  const request = body as Record<string, unknown>;
  if (request.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if (typeof request.method !== 'string' || request.method === '')
    return 'method must be a non-empty string';
  if ('id' in request && !isId(request.id)) return 'id must be a string, a number or null';
  return undefined;
}
