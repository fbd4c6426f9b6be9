// Line-anchored markers of the tolerant parser and the stop detector. A marker counts only at
// the start of a line, after optional spaces or tabs, so "Action: " inside a thought is text.

export const THOUGHT_MARKER = 'Thought:';
export const ACTION_MARKER = 'Action:';
export const ACTION_INPUT_MARKER = 'Action Input:';

/** Lines that start another turn: before the Action Input's `{` they mean there is no JSON. */
export const TURN_MARKERS: readonly string[] = [
  'Thought:',
  'Action:',
  'Action Input:',
  'Function:',
  'Observation:',
  'Assistant:',
  'User:',
  'System:',
];

/** Where the content of the line starting at `lineStart` begins (after spaces and tabs). */
function lineContentStart(text: string, lineStart: number): number {
  let i = lineStart;
  while (i < text.length && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  return i;
}

function lineMatches(text: string, lineStart: number, markers: readonly string[]): boolean {
  const at = lineContentStart(text, lineStart);
  return markers.some((marker) => text.startsWith(marker, at));
}

export interface MarkerLine {
  readonly lineStart: number;
  /** Index just after the marker. */
  readonly after: number;
}

/** The first line starting at or after `from` (a line start) whose content begins with `marker`. */
export function findMarkerLine(text: string, marker: string, from: number): MarkerLine | undefined {
  let lineStart = from;
  while (lineStart <= text.length) {
    const at = lineContentStart(text, lineStart);
    if (text.startsWith(marker, at)) return { lineStart, after: at + marker.length };
    const newline = text.indexOf('\n', lineStart);
    if (newline < 0) return undefined;
    lineStart = newline + 1;
  }
  return undefined;
}

/** The first line starting in `(from, to]` that begins with a turn marker, or -1. */
export function findTurnLine(text: string, from: number, to: number): number {
  let newline = text.indexOf('\n', from);
  while (newline >= 0 && newline < to) {
    if (lineMatches(text, newline + 1, TURN_MARKERS)) return newline + 1;
    newline = text.indexOf('\n', newline + 1);
  }
  return -1;
}

/** Index just after the `}` closing the object that opens at `open`, or -1 (string-aware). */
export function findObjectEnd(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = open; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (code === 0x5c) escaped = true;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b) depth++;
    else if (code === 0x7d && --depth === 0) return i + 1;
  }
  return -1;
}
