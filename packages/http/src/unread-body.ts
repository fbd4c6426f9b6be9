import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Before answering a Node request whose body was not read to its end (refused, too large, or
 * never wanted): the connection closes after the answer, and what the client still sends is read
 * and dropped meanwhile. Left in the socket, it would make the close a reset, which a client
 * still sending sees instead of the answer.
 */
export function dropUnreadBody(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete || req.destroyed) return;
  res.shouldKeepAlive = false;
  req.resume();
}
