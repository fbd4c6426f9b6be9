import { isPySpace } from '../python/python-text.js';
import { ACTION_INPUT_MARKER, ACTION_MARKER, TURN_MARKERS } from './markers.js';
import { REFERENCE_ACTION_MARKER, REFERENCE_INPUT_MARKER } from './reference-markers.js';

const SEEK_ACTION = 0;
const ACTION_NAME = 1;
const SEEK_INPUT = 2;
const SEEK_OBJECT = 3;
const OBJECT = 4;
const DONE = 5;
const FAILED = 6;
// The line-anchored reading completed while the find-based markers could still appear: it can
// no longer be the answer.
const IGNORED = 7;

// The find-based markers ("\nAction: ", "\nAction Input: "), tracked beside the line-anchored ones.
const REF_SEEK = 0; // neither marker seen
const REF_NAME = 1; // after "\nAction: ", until "\nAction Input: "
const REF_VALID = 2; // a one-line name between them: the step is read from there
const REF_DEAD = 3; // "\nAction Input: " without a usable name before it: the line-anchored reading is final

// The markers without their leading newline, matched from column 0 of a line after a newline.
const REF_MARKERS: readonly string[] = [
  REFERENCE_ACTION_MARKER.slice(1),
  REFERENCE_INPUT_MARKER.slice(1),
];
const REF_ACTION = 1;
const REF_INPUT = 2;

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
 * parser's rules: the find-based markers (first "\nAction: ", first "\nAction Input: ", a one-line
 * name between) when they hold, otherwise markers at line starts (the first `Action:` line, the
 * first `Action Input:` line after it), then the first `{` unless a new turn (`Function:`,
 * `Observation:`, …) starts first, then braces counted outside JSON strings. A line-anchored
 * object completes only once a "\nAction Input: " has ruled the find-based markers out. On every
 * prefix it agrees with `parseReAct(prefix)` about whether the object is complete and where it ends.
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
  #ref = REF_SEEK;
  #refMatched = 0;
  #refCandidates = 0; // as #candidates, for REF_MARKERS; 0 on the first line (no newline before it)
  #refNameLines = 0; // lines between the find-based markers holding something other than whitespace
  #refLineHasContent = false;
  #length = 0;
  #stopIndex = -1;
  readonly #chunks: string[] = [];

  /** True once the Action Input holds a complete JSON object. */
  get done(): boolean {
    return this.#phase === DONE;
  }

  /** True when the reply can no longer complete: an empty action name, or a new turn before any `{`. */
  get failed(): boolean {
    return (
      (this.#phase === FAILED || this.#phase === IGNORED) &&
      (this.#ref === REF_VALID || this.#ref === REF_DEAD)
    );
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
    this.#resetObject();
    this.#ref = REF_SEEK;
    this.#refMatched = 0;
    this.#refCandidates = 0;
    this.#refNameLines = 0;
    this.#refLineHasContent = false;
    this.#length = 0;
    this.#stopIndex = -1;
    this.#chunks.length = 0;
  }

  /** Feeds the next piece of output; returns `done`. Pieces fed after the stop are kept but not scanned. */
  feed(chunk: string): boolean {
    this.#chunks.push(chunk);
    const base = this.#length;
    this.#length += chunk.length;
    if (this.#phase === DONE) return true;
    for (let i = 0; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i);
      this.#step(code, chunk, i);
      if (this.#phase === DONE) {
        this.#stopIndex = base + i + 1;
        return true;
      }
      if (this.#ref < REF_VALID) this.#refStep(code);
    }
    return false;
  }

  // One character for the line-anchored reading (or, once REF_VALID, the object after the
  // find-based Action Input marker).
  #step(code: number, chunk: string, i: number): void {
    switch (this.#phase) {
      case SEEK_ACTION:
        if (code === NEWLINE) this.#newLine();
        else if (this.#lineChar(code, ACTION_ONLY)) {
          this.#phase = ACTION_NAME;
          this.#nameHasContent = false;
        }
        return;
      case ACTION_NAME:
        if (code === NEWLINE) {
          this.#phase = this.#nameHasContent ? SEEK_INPUT : FAILED;
          this.#newLine();
        } else if (!this.#nameHasContent && isContent(code, chunk, i)) this.#nameHasContent = true;
        return;
      case SEEK_INPUT:
        if (code === NEWLINE) this.#newLine();
        else if (this.#lineChar(code, INPUT_ONLY)) this.#phase = SEEK_OBJECT;
        return;
      case SEEK_OBJECT:
        if (code === OPEN) {
          this.#phase = OBJECT;
          this.#depth = 1;
        } else if (code === NEWLINE) this.#newLine();
        else if (this.#lineChar(code, TURN_MARKERS)) this.#phase = FAILED;
        return;
      case OBJECT:
        if (this.#objectChar(code)) {
          this.#resetObject();
          this.#phase = this.#ref === REF_VALID || this.#ref === REF_DEAD ? DONE : IGNORED;
        }
        return;
      default:
        return;
    }
  }

  // Returns true on the brace that closes the object.
  #objectChar(code: number): boolean {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (code === BACKSLASH) this.#escaped = true;
      else if (code === QUOTE) this.#inString = false;
    } else if (code === QUOTE) this.#inString = true;
    else if (code === OPEN) this.#depth++;
    else if (code === CLOSE && --this.#depth === 0) return true;
    return false;
  }

  #resetObject(): void {
    this.#depth = 0;
    this.#inString = false;
    this.#escaped = false;
  }

  // One character for the find-based markers.
  #refStep(code: number): void {
    if (code === NEWLINE) {
      if (this.#refLineHasContent) this.#refNameLines++;
      this.#refLineHasContent = false;
      this.#refMatched = 0;
      this.#refCandidates = REF_ACTION | REF_INPUT;
      return;
    }
    if (this.#ref === REF_NAME && !isPySpace(code)) this.#refLineHasContent = true;
    if (this.#refCandidates === 0) return;
    const at = this.#refMatched;
    let still = 0;
    let completed = 0;
    for (let k = 0; k < REF_MARKERS.length; k++) {
      const bit = 1 << k;
      if ((this.#refCandidates & bit) === 0) continue;
      const marker = REF_MARKERS[k]!;
      if (marker.charCodeAt(at) !== code) continue;
      if (marker.length === at + 1) completed = bit;
      else still |= bit;
    }
    this.#refMatched = at + 1;
    this.#refCandidates = completed === 0 ? still : 0;
    if (completed === REF_ACTION && this.#ref === REF_SEEK) {
      this.#ref = REF_NAME;
      this.#refNameLines = 0;
      this.#refLineHasContent = false;
    } else if (completed === REF_INPUT) {
      // The line of the marker itself holds only the marker.
      if (this.#ref === REF_NAME && this.#refNameLines === 1) this.#startReferenceObject();
      else this.#ref = REF_DEAD;
    }
  }

  // From here the find-based reading is the answer: look for its object as the parser does.
  #startReferenceObject(): void {
    this.#ref = REF_VALID;
    this.#phase = SEEK_OBJECT;
    this.#line = OTHER;
    this.#resetObject();
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
}
