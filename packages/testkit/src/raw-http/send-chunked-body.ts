import { connect } from 'node:net';

export interface ChunkedBodyAnswer {
  /** The answer's status; 0 when none came. */
  readonly status: number;
  /** The answer's body, de-chunked; `undefined` when the connection ended before it was whole. */
  readonly body: string | undefined;
  /** The socket error the client got (`ECONNRESET` for a reset), if any. */
  readonly error: string | undefined;
}

/** The body of a raw HTTP/1.1 answer, or undefined while it is not whole. */
function wholeBody(answer: string): string | undefined {
  const end = answer.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const head = answer.slice(0, end);
  const rest = answer.slice(end + 4);
  const length = /^content-length: *(\d+)/im.exec(head)?.[1];
  if (length !== undefined) return rest.length >= Number(length) ? rest : undefined;
  if (!/^transfer-encoding: *chunked/im.test(head)) return undefined;
  let body = '';
  let at = 0;
  for (;;) {
    const line = rest.indexOf('\r\n', at);
    if (line < 0) return undefined;
    const size = Number.parseInt(rest.slice(at, line), 16);
    if (size === 0) return body;
    if (rest.length < line + 2 + size) return undefined;
    body += rest.slice(line + 2, line + 2 + size);
    at = line + 2 + size + 2;
  }
}

/**
 * What a client streaming a large upload sees: sends `head` (the request line and headers) to
 * 127.0.0.1:`port` over a plain socket, then `total` bytes of body as HTTP chunks (no
 * Content-Length), as fast as the connection takes them, answer or not. Once the whole answer is
 * in, the client ends its side. Resolves when the connection closes, with the answer as far as
 * it came and the socket error if there was one: a server that resets the connection under its
 * answer shows as `error: 'ECONNRESET'`.
 */
export function sendChunkedBody(
  port: number,
  head: string,
  total: number,
): Promise<ChunkedBodyAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunk = 'x'.repeat(16 * 1024);
    const frame = `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    let sent = 0;
    let answer = '';
    let error: string | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => {
      answer += text;
      if (wholeBody(answer) !== undefined) socket.end();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      resolve({ status, body: wholeBody(answer), error });
    });
    const pump = () => {
      while (socket.writable && sent < total) {
        sent += chunk.length;
        if (!socket.write(frame)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (socket.writable) socket.write('0\r\n\r\n');
    };
    socket.write(`${head.replace(/\r\n$/, '')}\r\ntransfer-encoding: chunked\r\n\r\n`);
    pump();
  });
}
