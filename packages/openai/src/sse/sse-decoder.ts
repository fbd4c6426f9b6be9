const LF = 10;
const COLON = 58;
const SPACE = 32;
const LOWER_D = 100;

/** Receives each dispatched event: its data lines joined by `\n`, and its `event:` type. */
export type SseEventHandler = (data: string, event: string) => void;

/**
 * Server-sent events decoder (WHATWG rules): UTF-8 bytes in any split, lines ending in LF, CRLF
 * or CR (also when a CRLF is split across reads), `:` comments, multi-line `data`, `event` types.
 * Events are dispatched at a blank line; an event whose data is empty is not dispatched.
 *
 * Built for the hot path: one `indexOf` per line on LF-only input, no per-line allocation beyond
 * the data string itself.
 */
export class SseDecoder {
  readonly #onEvent: SseEventHandler;
  readonly #decoder = new TextDecoder('utf-8');
  /** An unterminated line carried to the next read. */
  #rest = '';
  /** The previous read ended in CR: a leading LF of the next one belongs to it. */
  #skipLF = false;
  #data: string | undefined = undefined;
  #event = '';

  constructor(onEvent: SseEventHandler) {
    this.#onEvent = onEvent;
  }

  /** Decodes one read of the response body. */
  push(bytes: Uint8Array): void {
    this.pushText(this.#decoder.decode(bytes, { stream: true }));
  }

  /** Feeds already-decoded text (tests, or sources that yield strings). */
  pushText(chunk: string): void {
    if (chunk.length === 0) return;
    let text = chunk;
    if (this.#rest.length !== 0) {
      text = this.#rest + chunk;
      this.#rest = '';
    }
    let pos = 0;
    if (this.#skipLF) {
      this.#skipLF = false;
      if (text.charCodeAt(0) === LF) pos = 1;
    }
    const len = text.length;
    let cr = text.indexOf('\r', pos);
    if (cr === -1) {
      // LF-only input (what every known provider sends): one indexOf per line.
      while (pos < len) {
        const lf = text.indexOf('\n', pos);
        if (lf === -1) break;
        if (
          text.charCodeAt(lf + 1) === LF &&
          this.#data === undefined &&
          this.#event.length === 0 &&
          text.startsWith('data: ', pos)
        ) {
          // The usual event, one `data: ` line and its blank line, dispatched in one step.
          const value = text.slice(pos + 6, lf);
          pos = lf + 2;
          if (value.length !== 0) this.#onEvent(value, 'message');
          continue;
        }
        this.#line(text, pos, lf);
        pos = lf + 1;
      }
    } else {
      let lf = text.indexOf('\n', pos);
      while (pos < len) {
        if (cr !== -1 && cr < pos) cr = text.indexOf('\r', pos);
        if (lf !== -1 && lf < pos) lf = text.indexOf('\n', pos);
        if (cr === -1 && lf === -1) break;
        if (cr === -1 || (lf !== -1 && lf < cr)) {
          this.#line(text, pos, lf);
          pos = lf + 1;
        } else {
          this.#line(text, pos, cr);
          pos = cr + 1;
          if (pos === len) this.#skipLF = true;
          else if (text.charCodeAt(pos) === LF) pos++;
        }
      }
    }
    if (pos < len) this.#rest = text.slice(pos);
  }

  /**
   * The body ended. An event whose lines all ended is dispatched even without the closing blank
   * line (servers that end with `data: [DONE]\n`); an unterminated last line is a cut-off line and
   * is dropped, so a truncated JSON payload is never handed on.
   */
  end(): void {
    this.pushText(this.#decoder.decode());
    this.#rest = '';
    this.#dispatch();
  }

  #line(text: string, start: number, end: number): void {
    if (start === end) {
      this.#dispatch();
      return;
    }
    const first = text.charCodeAt(start);
    if (first === LOWER_D && text.startsWith('data', start)) {
      const after = start + 4;
      if (after === end || text.charCodeAt(after) === COLON) {
        let from = after + 1;
        if (from < end && text.charCodeAt(from) === SPACE) from++;
        const value = from >= end ? '' : text.slice(from, end);
        this.#data = this.#data === undefined ? value : `${this.#data}\n${value}`;
        return;
      }
    }
    if (first === COLON) return;
    this.#field(text, start, end);
  }

  /** Any field other than `data` (rare): only `event` matters here; `id` and `retry` are ignored. */
  #field(text: string, start: number, end: number): void {
    const colon = text.indexOf(':', start);
    const hasValue = colon !== -1 && colon < end;
    const name = text.slice(start, hasValue ? colon : end);
    if (name !== 'event') return;
    let from = hasValue ? colon + 1 : end;
    if (from < end && text.charCodeAt(from) === SPACE) from++;
    this.#event = text.slice(from, end);
  }

  #dispatch(): void {
    const data = this.#data;
    const event = this.#event;
    this.#data = undefined;
    this.#event = '';
    if (data === undefined || data.length === 0) return;
    this.#onEvent(data, event.length === 0 ? 'message' : event);
  }
}
