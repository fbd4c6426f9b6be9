import type { UIMessage } from 'ai';

/** The assistant message with every approval request answered: `approved`, with a `reason`. */
export function answerApprovals(message: UIMessage, approved = true, reason?: string): UIMessage {
  return {
    ...message,
    parts: message.parts.map((p) =>
      'approval' in p && p.state === 'approval-requested'
        ? ({
            ...p,
            state: 'approval-responded',
            approval: { id: p.approval.id, approved, ...(reason ? { reason } : {}) },
          } as unknown as typeof p)
        : p,
    ),
  };
}

/**
 * A plain request as the user of bearer `token` (none: no Authorization header): its status,
 * the challenge of a 401, the error code and the body's text.
 */
export async function callAs(
  url: string,
  token: string | undefined,
  method = 'GET',
  body?: unknown,
) {
  const response = await fetch(url, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    code: text ? (JSON.parse(text) as { error?: { code?: string } }).error?.code : undefined,
    text,
  };
}
