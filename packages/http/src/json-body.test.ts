import { describe, expect, it } from 'vitest';
import { HttpRequestError } from './http-request-error.js';
import { jsonObject, readJsonBody } from './json-body.js';

const json = 'application/json; charset=utf-8';
const bytes = (text: string) => new TextEncoder().encode(text);

/** A body in pieces, recording how many of them were read. */
function pieces(...parts: string[]) {
  const source = { read: 0 };
  async function* chunks() {
    for (const part of parts) {
      source.read++;
      yield bytes(part);
    }
  }
  return Object.assign(source, { chunks: chunks() });
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return HttpRequestError.isInstance(error) ? `${error.code} ${error.httpStatus}` : String(error);
}

describe('readJsonBody over a JsonBodySource', () => {
  it('parses JSON in pieces; no body or an empty one is undefined', async () => {
    const body = pieces('{"a":', '[1,2]}');
    expect(
      await readJsonBody({ contentType: json, contentLength: null, chunks: body.chunks }, 64),
    ).toEqual({ a: [1, 2] });
    expect(
      await readJsonBody({ contentType: null, contentLength: null, chunks: null }, 64),
    ).toBeUndefined();
    expect(
      await readJsonBody({ contentType: json, contentLength: '0', chunks: pieces().chunks }, 64),
    ).toBeUndefined();
  });

  it('refuses another media type (415) before reading', async () => {
    const body = pieces('{}');
    expect(
      await codeOf(
        readJsonBody({ contentType: 'text/plain', contentLength: '2', chunks: body.chunks }, 64),
      ),
    ).toBe('UNSUPPORTED_MEDIA_TYPE 415');
    expect(
      await codeOf(
        readJsonBody({ contentType: undefined, contentLength: '2', chunks: body.chunks }, 64),
      ),
    ).toBe('UNSUPPORTED_MEDIA_TYPE 415');
    expect(body.read).toBe(0);
  });

  it('refuses a declared length over the limit (413) without reading, and stops at the limit', async () => {
    const declared = pieces('{}');
    expect(
      await codeOf(
        readJsonBody({ contentType: json, contentLength: '65', chunks: declared.chunks }, 64),
      ),
    ).toBe('BODY_TOO_LARGE 413');
    expect(declared.read).toBe(0);
    const chunked = pieces('x'.repeat(40), 'x'.repeat(40), 'never read');
    expect(
      await codeOf(
        readJsonBody({ contentType: json, contentLength: null, chunks: chunked.chunks }, 64),
      ),
    ).toBe('BODY_TOO_LARGE 413');
    expect(chunked.read).toBe(2);
  });

  it('refuses text that is not UTF-8 JSON (400)', async () => {
    const notJson = readJsonBody(
      { contentType: json, contentLength: null, chunks: pieces('{nope').chunks },
      64,
    );
    expect(await codeOf(notJson)).toBe('INVALID_BODY 400');
    async function* latin1() {
      yield new Uint8Array([0x22, 0xe9, 0x22]);
    }
    expect(
      await codeOf(readJsonBody({ contentType: json, contentLength: null, chunks: latin1() }, 64)),
    ).toBe('INVALID_BODY 400');
  });

  it('refuses a body cut short (the client hung up) with 400, not the stream’s own error', async () => {
    async function* cut() {
      yield bytes('{"a":');
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    }
    expect(
      await codeOf(readJsonBody({ contentType: json, contentLength: '100', chunks: cut() }, 256)),
    ).toBe('BODY_INCOMPLETE 400');
  });

  it('reads a fetch Request’s body and cancels it at the limit', async () => {
    const request = new Request('http://127.0.0.1/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"ok":true}',
    });
    const from = (r: Request) => ({
      contentType: r.headers.get('content-type'),
      contentLength: r.headers.get('content-length'),
      chunks: r.body,
    });
    expect(await readJsonBody(from(request), 64)).toEqual({ ok: true });
    const direct = new Request('http://127.0.0.1/', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(await codeOf(readJsonBody(direct, 64))).toBe('UNSUPPORTED_MEDIA_TYPE 415');
    expect(await readJsonBody(new Request('http://127.0.0.1/'), 64)).toBeUndefined();
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (c) => c.enqueue(bytes('x'.repeat(16))),
      cancel: () => {
        cancelled = true;
      },
    });
    const streamed = new Request('http://127.0.0.1/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(await codeOf(readJsonBody(from(streamed), 64))).toBe('BODY_TOO_LARGE 413');
    expect(cancelled).toBe(true);
  });
});

describe('jsonObject', () => {
  it('passes a JSON object, and refuses anything else with 400 saying what it was', () => {
    expect(jsonObject({ a: 1 })).toEqual({ a: 1 });
    const refusals = [undefined, null, [1], 'hi', 7, true].map((body) => {
      try {
        jsonObject(body);
        return 'accepted';
      } catch (error) {
        return HttpRequestError.isInstance(error) ? `${error.code} ${error.message}` : error;
      }
    });
    expect(refusals).toEqual([
      'INVALID_BODY The request body must be a JSON object, got nothing (the body is empty)',
      'INVALID_BODY The request body must be a JSON object, got null',
      'INVALID_BODY The request body must be a JSON object, got an array',
      'INVALID_BODY The request body must be a JSON object, got a string',
      'INVALID_BODY The request body must be a JSON object, got a number',
      'INVALID_BODY The request body must be a JSON object, got a boolean',
    ]);
  });
});
