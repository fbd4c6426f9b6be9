/**
 * The reference's step status codes (rapidapi.py L299-313, mapped in L387-403). 7 and 8 follow
 * the code, not the source comments, which have them swapped.
 */
export const ToolBenchStatus = {
  OK: 0,
  UNKNOWN_FUNCTION: 1,
  BAD_FINISH_INPUT: 2,
  FINAL_ANSWER: 3,
  GIVE_UP: 4,
  TIMEOUT: 5,
  API_NOT_WORKING: 6,
  UNAUTHORIZED: 7,
  UNSUBSCRIBED: 8,
  TOO_MANY_REQUESTS: 9,
  RATE_LIMIT: 10,
  MESSAGE_ERROR: 11,
  REQUEST_FAILED: 12,
} as const;

export type ToolBenchStatusCode = (typeof ToolBenchStatus)[keyof typeof ToolBenchStatus];

const BY_ERROR: ReadonlyMap<string, ToolBenchStatusCode> = new Map([
  ['API not working error...', ToolBenchStatus.API_NOT_WORKING],
  ['Unauthorized error...', ToolBenchStatus.UNAUTHORIZED],
  ['Unsubscribed error...', ToolBenchStatus.UNSUBSCRIBED],
  ['Too many requests error...', ToolBenchStatus.TOO_MANY_REQUESTS],
  ['Rate limit per minute error...', ToolBenchStatus.RATE_LIMIT],
  ['Message error...', ToolBenchStatus.MESSAGE_ERROR],
]);

/** The status the reference gives a server reply, from its `error` text. */
export function statusOfServerError(error: unknown): ToolBenchStatusCode {
  return (typeof error === 'string' && BY_ERROR.get(error)) || ToolBenchStatus.OK;
}
