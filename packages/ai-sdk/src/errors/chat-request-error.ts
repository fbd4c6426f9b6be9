import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

/** The HTTP status each code is answered with. */
const HTTP_STATUS = {
  BAD_CHAT_REQUEST: 400,
  HISTORY_MISMATCH: 409,
  CHAT_BUSY: 409,
  APPROVAL_NOT_PENDING: 409,
  NOTHING_TO_REGENERATE: 409,
  CHAT_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
} as const;

/**
 * The chat's own refusals; those of the Host, Origin and body checks (`HOST_NOT_ALLOWED` 421,
 * `CROSS_ORIGIN_REFUSED` 403, `UNSUPPORTED_MEDIA_TYPE` 415, `BODY_TOO_LARGE` 413, `INVALID_BODY`
 * 400) are `@skein/http`'s `HttpRequestError`s.
 *
 * - `BAD_CHAT_REQUEST` (400): the body is not what `useChat` sends (`field` names where).
 * - `HISTORY_MISMATCH` (409): the client's messages differ from the thread's stored conversation
 *   (an edited or foreign history); nothing was stored (`chatId`, `field`).
 * - `CHAT_BUSY` (409): a message came while the chat's thread is running here (`chatId`).
 * - `APPROVAL_NOT_PENDING` (409): an approval answers a pause that is not (or no longer) waiting:
 *   a second submission of the same approval, or calls the pause does not list (`chatId`).
 * - `NOTHING_TO_REGENERATE` (409): `regenerate-message` on a chat with no answer to take back.
 * - `CHAT_NOT_FOUND` (404): no thread is stored for the chat (`chatId`).
 * - `ROUTE_NOT_FOUND` (404) / `METHOD_NOT_ALLOWED` (405): no endpoint there (`path`, `method`).
 */
export type ChatRequestErrorCode = keyof typeof HTTP_STATUS;

/** What a ChatRequestError can say; each code has some of these. */
export interface ChatRequestErrorFacts {
  readonly chatId?: string;
  /** Where in the request body the problem is (`messages[3].parts`). */
  readonly field?: string;
  readonly path?: string;
  readonly method?: string;
}

/**
 * A chat request the handler refuses. `httpStatus` is the status it is answered with (the body is
 * `{ error: { code, message } }`); never retryable as sent, and nothing was stored.
 */
export class ChatRequestError<
  Code extends ChatRequestErrorCode = ChatRequestErrorCode,
> extends SkeinError<Code> {
  static override readonly errorName = 'ChatRequestError';
  readonly httpStatus: (typeof HTTP_STATUS)[Code];
  declare readonly chatId?: string;
  declare readonly field?: string;
  declare readonly path?: string;
  declare readonly method?: string;

  constructor(
    code: Code,
    message: string,
    facts: ChatRequestErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
    this.httpStatus = HTTP_STATUS[code];
  }

  static badRequest(field: string, problem: string): ChatRequestError<'BAD_CHAT_REQUEST'> {
    return new ChatRequestError('BAD_CHAT_REQUEST', `Chat request: ${field} ${problem}`, { field });
  }
}
