import { ACTION_INPUT_MARKER, ACTION_MARKER, TURN_MARKERS } from './markers.js';

const SEEK_ACTION = 0;
const ACTION_NAME = 1;
const SEEK_INPUT = 2;
const SEEK_OBJECT = 3;
const OBJECT = 4;
const DONE = 5;
const FAILED = 6;

// Where the current line stands against the markers looked for.
const INDENT = 0; // only spaces/tabs so far
const PREFIX = 1; // the content so far is the start of at least one marker
const OTHER = 2; // the line can no longer be a marker line

const NEWLINE = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = 0x7b;
const CLOSE = 0x7d;

const ACTION_ONLY: readonly string[] = [ACTION_MARKER];
const INPUT_ONLY: readonly string[] = [ACTION_INPUT_MARKER];
const NOT_SPACE = /\S/;

/** Whether the character is not whitespace in the sense of `String.prototype.trim`. */
function isContent(code: number, chunk: string, i: number): boolean {
  if (code > SPACE && code < 0x80) return true;
  if (code <= SPACE) return code !== SPACE && (code < 0x09 || code > 0x0d);
  return NOT_SPACE.test(chunk[i]!);
}

/**
 * Watches a ReAct reply arrive token by token and reports the moment its Action Input holds a
 * complete JSON object, so generation can stop there. It keeps its scanning state between
 * tokens (each character is looked at once: linear in the output) and follows the tolerant
 * parser's rules: markers at line starts, the first `Action:` line, the first `Action Input:`
 * line after it, then the first `{` unless a new turn (`Function:`, `Observation:`, …) starts
 * first, then braces counted outside JSON strings. On every prefix it agrees with
 * `parseReAct(prefix)` about whether the object is complete and where it ends.
 */
export class ReActStopDetector {
  #phase = SEEK_ACTION;
  #line = INDENT;
  #matched = 0; // characters of the line content matched so far
  #candidates = 0; // bit k set: markers[k] still matches the line content
  #nameHasContent = false;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #length = 0;
  #stopIndex = -1;
  readonly #chunks: string[] = [];

  /** True once the Action Input holds a complete JSON object. */
  get done(): boolean {
    return this.#phase === DONE;
  }

  /** True when the reply can no longer complete: an empty action name, or a new turn before any `{`. */
  get failed(): boolean {
    return this.#phase === FAILED;
  }

  /** Index (in everything fed) just after the object's closing brace; -1 until done. */
  get stopIndex(): number {
    return this.#stopIndex;
  }

  /** Characters fed so far. */
  get length(): number {
    return this.#length;
  }

  /** Everything fed so far. */
  text(): string {
    if (this.#chunks.length > 1) this.#chunks.splice(0, this.#chunks.length, this.#chunks.join(''));
    return this.#chunks[0] ?? '';
  }

  /** The reply up to the stop point (all of it while not done). */
  textUntilStop(): string {
    const text = this.text();
    return this.#stopIndex < 0 ? text : text.slice(0, this.#stopIndex);
  }

  /** Starts over for a new reply. */
  reset(): void {
    this.#phase = SEEK_ACTION;
    this.#newLine();
    this.#nameHasContent = false;
    this.#depth = 0;
    this.#inString = false;
    this.#escaped = false;
    this.#length = 0;
    this.#stopIndex = -1;
    this.#chunks.length = 0;
  }

  /** Feeds the next piece of output; returns `done`. Pieces fed after the stop are kept but not scanned. */
  feed(chunk: string): boolean {
    this.#chunks.push(chunk);
    const base = this.#length;
    this.#length += chunk.length;
    let i = 0;
    while (i < chunk.length) {
      switch (this.#phase) {
        case OBJECT:
          i = this.#scanObject(chunk, i);
          if (this.done) {
            this.#stopIndex = base + i;
            return true;
          }
          break;
        case SEEK_OBJECT:
          i = this.#seekObject(chunk, i);
          break;
        case ACTION_NAME:
          i = this.#readName(chunk, i);
          break;
        case SEEK_ACTION:
          i = this.#seekLine(chunk, i, ACTION_ONLY, ACTION_NAME);
          break;
        case SEEK_INPUT:
          i = this.#seekLine(chunk, i, INPUT_ONLY, SEEK_OBJECT);
          break;
        default:
          return this.done;
      }
    }
    return false;
  }

  #newLine(): void {
    this.#line = INDENT;
    this.#matched = 0;
    this.#candidates = 0;
  }

  // One character of line content against `markers`; returns true when it completes one.
  #lineChar(code: number, markers: readonly string[]): boolean {
    if (this.#line === OTHER) return false;
    if (this.#line === INDENT) {
      if (code === SPACE || code === TAB) return false;
      this.#line = PREFIX;
      this.#candidates = (1 << markers.length) - 1;
    }
    const at = this.#matched;
    let still = 0;
    for (let k = 0; k < markers.length; k++) {
      if ((this.#candidates & (1 << k)) === 0) continue;
      const marker = markers[k]!;
      if (marker.charCodeAt(at) !== code) continue;
      if (marker.length === at + 1) {
        this.#line = OTHER;
        return true;
      }
      still |= 1 << k;
    }
    this.#matched = at + 1;
    this.#candidates = still;
    if (still === 0) this.#line = OTHER;
    return false;
  }

  #seekLine(chunk: string, from: number, markers: readonly string[], next: number): number {
    for (let i = from; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (code === NEWLINE) this.#newLine();
      else if (this.#lineChar(code, markers)) {
        this.#phase = next;
        this.#nameHasContent = false;
        return i + 1;
      }
    }
    return chunk.length;
  }

  #readName(chunk: string, from: number): number {
    for (let i = from; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (code === NEWLINE) {
        this.#phase = this.#nameHasContent ? SEEK_INPUT : FAILED;
        this.#newLine();
        return i + 1;
      }
      if (!this.#nameHasContent && isContent(code, chunk, i)) this.#nameHasContent = true;
    }
    return chunk.length;
  }

  #seekObject(chunk: string, from: number): number {
    for (let i = from; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (code === OPEN) {
        this.#phase = OBJECT;
        return i;
      }
      if (code === NEWLINE) this.#newLine();
      else if (this.#lineChar(code, TURN_MARKERS)) {
        this.#phase = FAILED;
        return chunk.length;
      }
    }
    return chunk.length;
  }

  // Returns the index after the last character scanned (after the closing brace when done).
  #scanObject(chunk: string, from: number): number {
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    for (let i = from; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (code === BACKSLASH) escaped = true;
        else if (code === QUOTE) inString = false;
      } else if (code === QUOTE) inString = true;
      else if (code === OPEN) depth++;
      else if (code === CLOSE && --depth === 0) {
        this.#depth = 0;
        this.#inString = false;
        this.#escaped = false;
        this.#phase = DONE;
        return i + 1;
      }
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    return chunk.length;
  }
}
