import { streamLimitExceeded } from '../errors/provider-errors.js';
import { checkIntegerOption } from '../options/check-integer-option.js';

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const LOWER_D = 100;

/** Longest SSE line, and longest data of one event, by default (UTF-16 code units). */
const DEFAULT_MAX_SSE_LINE_LENGTH = 32 * 1024 * 1024;

/** Receives each dispatched event: its data lines joined by `\n`, and its `event:` type. */
export type SseEventHandler = (data: string, event: string) => void;

export interface SseDecoderOptions {
  /**
   * Longest line, and longest data of one event (its `data:` lines joined), in UTF-16 code units
   * (default 32 MiB). Past it, `ProviderError` (`STREAM_LIMIT_EXCEEDED`): a server that never ends a line would
   * otherwise grow memory without bound while the idle timeout never fires.
   */
  readonly maxLineLength?: number;
}

/** Index of the first CR or LF in `text` at or after `from`, or -1. */
function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return i;
  }
  return -1;
}

/**
 * Server-sent events decoder (WHATWG rules): UTF-8 bytes in any split, lines ending in LF, CRLF
 * or CR (also when a CRLF is split across reads), `:` comments, multi-line `data`, `event` types.
 * Events are dispatched at a blank line; an event whose data is empty is not dispatched.
 *
 * Built for the hot path: one `indexOf` per line on LF-only input, no per-line allocation beyond
 * the data string itself. Linear in the input however it is split: an unfinished line is kept as
 * a list of pieces, and each read is scanned once, never the pieces carried from earlier reads.
 */
export class SseDecoder {
  readonly #onEvent: SseEventHandler;
  readonly #maxLine: number;
  readonly #decoder = new TextDecoder('utf-8');
  /** The pieces of an unterminated line carried to the next read, and their total length. */
  readonly #pending: string[] = [];
  #pendingLength = 0;
  /** The previous read ended in CR: a leading LF of the next one belongs to it. */
  #skipLF = false;
  #data: string | undefined = undefined;
  #event = '';

  constructor(onEvent: SseEventHandler, options: SseDecoderOptions = {}) {
    checkIntegerOption('maxLineLength', options.maxLineLength, 1);
    this.#onEvent = onEvent;
    this.#maxLine = options.maxLineLength ?? DEFAULT_MAX_SSE_LINE_LENGTH;
  }

  /** Decodes one read of the response body. */
  push(bytes: Uint8Array): void {
    this.pushText(this.#decoder.decode(bytes, { stream: true }));
  }

  /** Feeds already-decoded text (tests, or sources that yield strings). */
  pushText(text: string): void {
    if (text.length === 0) return;
    let pos = 0;
    if (this.#skipLF) {
      this.#skipLF = false;
      if (text.charCodeAt(0) === LF) pos = 1;
    }
    if (this.#pendingLength !== 0) {
      const end = lineEnd(text, pos);
      if (end === -1) {
        this.#carry(text, pos);
        return;
      }
      this.#checkLine(this.#pendingLength + end - pos);
      this.#pending.push(text.slice(pos, end));
      const line = this.#pending.join('');
      this.#pending.length = 0;
      this.#pendingLength = 0;
      this.#line(line, 0, line.length);
      pos = this.#after(text, end);
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
          this.#checkLine(lf - pos);
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
          pos = this.#after(text, cr);
        }
      }
    }
    this.#carry(text, pos);
  }

  /**
   * The body ended. An event whose lines all ended is dispatched even without the closing blank
   * line (servers that end with `data: [DONE]\n`); an unterminated last line is a cut-off line and
   * is dropped, so a truncated JSON payload is never handed on.
   */
  end(): void {
    this.pushText(this.#decoder.decode());
    this.#pending.length = 0;
    this.#pendingLength = 0;
    this.#dispatch();
  }

  /** Keeps `text` from `pos` as part of a line the next read continues. */
  #carry(text: string, pos: number): void {
    if (pos >= text.length) return;
    this.#checkLine(this.#pendingLength + text.length - pos);
    this.#pending.push(pos === 0 ? text : text.slice(pos));
    this.#pendingLength += text.length - pos;
  }

  /** Where the next line starts after the line end at `end` (a CRLF counts once). */
  #after(text: string, end: number): number {
    const next = end + 1;
    if (text.charCodeAt(end) !== CR) return next;
    if (next === text.length) this.#skipLF = true;
    else if (text.charCodeAt(next) === LF) return next + 1;
    return next;
  }

  #checkLine(length: number): void {
    if (length > this.#maxLine) {
      throw streamLimitExceeded(
        'characters in one SSE line or event (maxLineLength)',
        this.#maxLine,
        'the response stream',
      );
    }
  }

  #line(text: string, start: number, end: number): void {
    if (start === end) {
      this.#dispatch();
      return;
    }
    this.#checkLine(end - start);
    const first = text.charCodeAt(start);
    if (first === LOWER_D && text.startsWith('data', start)) {
      const after = start + 4;
      if (after === end || text.charCodeAt(after) === COLON) {
        let from = after + 1;
        if (from < end && text.charCodeAt(from) === SPACE) from++;
        const value = from >= end ? '' : text.slice(from, end);
        if (this.#data === undefined) {
          this.#data = value;
        } else {
          this.#checkLine(this.#data.length + 1 + value.length);
          this.#data = `${this.#data}\n${value}`;
        }
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
