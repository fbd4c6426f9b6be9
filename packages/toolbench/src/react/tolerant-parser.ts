import { ToolBenchError } from '../errors/toolbench-error.js';
import {
  type ArgumentsParsedBy,
  closeJsonObject,
  extractKeyValues,
  parsePythonJsonObject,
  repairJsonObject,
} from './lenient-json.js';
import {
  ACTION_INPUT_MARKER,
  ACTION_MARKER,
  findMarkerLine,
  findObjectEnd,
  findTurnLine,
  THOUGHT_MARKER,
} from './markers.js';
import { findReferenceMarkers, type ReferenceMarkers } from './reference-markers.js';

export type ReActWarningCode =
  | 'missing-thought-marker'
  | 'action-trimmed'
  | 'text-before-json'
  | 'code-fence'
  | 'trailing-text'
  | 'unterminated-json'
  | 'empty-action-input'
  | 'repaired-json'
  | 'extracted-arguments';

export interface ReActWarning {
  readonly code: ReActWarningCode;
  readonly message: string;
}

/** One parsed ReAct step. */
export interface ReActStep {
  readonly thought: string;
  /** The action name, trimmed. */
  readonly action: string;
  /** The arguments as an object. */
  readonly actionInput: Record<string, unknown>;
  /** The Action Input text the arguments were read from (the JSON object alone when complete). */
  readonly rawActionInput: string;
  /** Which step of strict → balanced → jsonrepair → key-value extraction produced the arguments. */
  readonly parsedBy: ArgumentsParsedBy;
  /** The Action Input held a complete (balanced) JSON object: generation could stop at `end`. */
  readonly complete: boolean;
  /** Index just after the object's closing brace when complete, else the text's length. */
  readonly end: number;
  readonly warnings: readonly ReActWarning[];
}

const FENCE_OPEN = /^```[A-Za-z0-9_-]*/;
const FENCE_CLOSE = /```\s*$/;

function excerpt(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

function locateAction(text: string): { lineStart: number; name: string; nameEnd: number } {
  const line = findMarkerLine(text, ACTION_MARKER, 0);
  if (line === undefined)
    throw ToolBenchError.reactParse(
      'missing-action',
      `No line starting with "${ACTION_MARKER}" in the model output ${excerpt(text)}`,
      { marker: ACTION_MARKER },
    );
  const newline = text.indexOf('\n', line.after);
  const nameEnd = newline < 0 ? text.length : newline;
  return { lineStart: line.lineStart, name: text.slice(line.after, nameEnd), nameEnd };
}

function readThought(text: string, actionLine: number, warnings: ReActWarning[]): string {
  const line = findMarkerLine(text, THOUGHT_MARKER, 0);
  if (line !== undefined && line.lineStart < actionLine)
    return text.slice(line.after, actionLine).trim();
  warnings.push({
    code: 'missing-thought-marker',
    message: `No "${THOUGHT_MARKER}" line before the Action: the text before it is taken as the thought`,
  });
  return text.slice(0, actionLine).trim();
}

interface ArgumentsRead {
  readonly actionInput: Record<string, unknown>;
  readonly raw: string;
  readonly parsedBy: ArgumentsParsedBy;
  readonly complete: boolean;
  readonly end: number;
}

function readObject(
  text: string,
  inputStart: number,
  open: number,
  warnings: ReActWarning[],
): ArgumentsRead | undefined {
  const before = text.slice(inputStart, open).trim();
  if (FENCE_OPEN.test(before)) {
    warnings.push({
      code: 'code-fence',
      message: 'The Action Input is wrapped in a Markdown code fence',
    });
  }
  const leading = before.replace(FENCE_OPEN, '').trim();
  if (leading !== '') {
    warnings.push({
      code: 'text-before-json',
      message: `Text before the JSON object ignored: ${excerpt(leading)}`,
    });
  }
  const close = findObjectEnd(text, open);
  if (close >= 0) {
    const raw = text.slice(open, close);
    const trailing = text.slice(close).trim();
    if (trailing !== '' && !/^```\s*$/.test(trailing)) {
      warnings.push({
        code: 'trailing-text',
        message: `Text after the JSON object ignored: ${excerpt(trailing)}`,
      });
    }
    const whole = leading === '' && trailing === '';
    const parsed = parsePythonJsonObject(raw);
    if (parsed !== undefined)
      return {
        actionInput: parsed,
        raw,
        parsedBy: whole ? 'strict' : 'balanced',
        complete: true,
        end: close,
      };
    const repaired = repairJsonObject(raw);
    if (repaired !== undefined) {
      warnings.push({
        code: 'repaired-json',
        message: 'The JSON object was not valid and was repaired',
      });
      return { actionInput: repaired, raw, parsedBy: 'repaired', complete: true, end: close };
    }
    const extracted = extractKeyValues(raw);
    if (extracted === undefined) return undefined;
    warnings.push({
      code: 'extracted-arguments',
      message: 'Arguments were read out of text that is not JSON',
    });
    return { actionInput: extracted, raw, parsedBy: 'extracted', complete: true, end: close };
  }
  // Unterminated: the object runs to the next turn marker or to the end of the text.
  const turn = findTurnLine(text, open, text.length);
  const raw = text
    .slice(open, turn < 0 ? text.length : turn)
    .replace(FENCE_CLOSE, '')
    .trimEnd();
  warnings.push({ code: 'unterminated-json', message: 'The JSON object is not closed' });
  const repaired = closeJsonObject(raw) ?? repairJsonObject(raw);
  if (repaired !== undefined)
    return { actionInput: repaired, raw, parsedBy: 'repaired', complete: false, end: text.length };
  const extracted = extractKeyValues(raw);
  if (extracted === undefined) return undefined;
  warnings.push({
    code: 'extracted-arguments',
    message: 'Arguments were read out of text that is not JSON',
  });
  return { actionInput: extracted, raw, parsedBy: 'extracted', complete: false, end: text.length };
}

function readArguments(
  text: string,
  inputStart: number,
  warnings: ReActWarning[],
): ArgumentsRead | undefined {
  const open = text.indexOf('{', inputStart);
  const turn = findTurnLine(text, inputStart, open < 0 ? text.length : open);
  if (open >= 0 && turn < 0) return readObject(text, inputStart, open, warnings);
  // No object: what is there runs to the next turn (a hallucinated observation is not input).
  const region = text
    .slice(inputStart, turn < 0 ? text.length : turn)
    .trim()
    .replace(FENCE_OPEN, '')
    .replace(FENCE_CLOSE, '')
    .trim();
  if (region === '') {
    warnings.push({
      code: 'empty-action-input',
      message: 'The Action Input is empty: arguments {} assumed',
    });
    return { actionInput: {}, raw: '', parsedBy: 'empty', complete: false, end: text.length };
  }
  const extracted = extractKeyValues(region);
  if (extracted === undefined) return undefined;
  warnings.push({
    code: 'extracted-arguments',
    message: 'Arguments were read out of text that is not JSON',
  });
  return {
    actionInput: extracted,
    raw: region,
    parsedBy: 'extracted',
    complete: false,
    end: text.length,
  };
}

interface ActionRead {
  readonly lineStart: number;
  /** The text the name was read from, for the trimming warning. */
  readonly rawName: string;
  readonly name: string;
  /** Index just after "Action Input:". */
  readonly inputAfter: number;
  /** Whether later text could still change which markers are read (then nothing is complete). */
  readonly final: (end: number) => boolean;
}

// The line-anchored reading: the first "Action:" line, the first "Action Input:" line after it.
function lineAnchoredAction(text: string, markers: ReferenceMarkers): ActionRead {
  const action = locateAction(text);
  const inputLine =
    action.nameEnd < text.length
      ? findMarkerLine(text, ACTION_INPUT_MARKER, action.nameEnd + 1)
      : undefined;
  if (inputLine === undefined)
    throw ToolBenchError.reactParse(
      'missing-action-input',
      `No line starting with "${ACTION_INPUT_MARKER}" after the Action line in the model output ${excerpt(text)}`,
      { marker: ACTION_INPUT_MARKER, action: action.name.trim() },
    );
  const name = action.name.trim();
  if (name === '')
    throw ToolBenchError.reactParse(
      'empty-action',
      `The "${ACTION_MARKER}" line names no function in the model output ${excerpt(text)}`,
      {
        marker: ACTION_MARKER,
      },
    );
  return {
    lineStart: action.lineStart,
    // One space after the colon is the format; anything else around the name is worth a warning.
    rawName: action.name.replace(/^ /, ''),
    name,
    inputAfter: inputLine.after,
    // Until a "\nAction Input: " has shown the original's markers unusable, a later one could
    // still make them usable, and the reading would move there.
    final: (end) => markers.kind === 'dead' && markers.decidedAt < end,
  };
}

function readAction(text: string): ActionRead {
  const markers = findReferenceMarkers(text);
  if (markers.kind !== 'valid') return lineAnchoredAction(text, markers);
  // Where ToolLLaMA's find-based parser reads a one-line name, read what it reads; both markers
  // are first occurrences, so no later text can move them.
  return {
    lineStart: markers.actionLineStart,
    rawName: markers.rawName,
    name: markers.name,
    inputAfter: markers.inputAfter,
    final: () => true,
  };
}

/**
 * The tolerant ReAct parser. Where ToolLLaMA's find-based parser finds a one-line action name
 * (first "\nAction: ", first "\nAction Input: ", the name between them stripped), the step is
 * read at those markers, so both agree on the name and on any arguments `json.loads` reads.
 * Otherwise markers count at line starts (indented, or without the space after the colon). The
 * name is trimmed; the Action Input is cut at the end of its first complete JSON object (braces
 * inside strings do not count) so trailing prose and hallucinated `Function:`/`Observation:`
 * turns are ignored, code fences stripped, and the JSON read strictly (with Python's NaN and
 * Infinity), then as the balanced object, then through `jsonrepair`, then by key-value
 * extraction. Throws `ToolBenchError` (`REACT_PARSE_ERROR`) naming
 * what is missing.
 */
export function parseReActTolerant(text: string): ReActStep {
  const warnings: ReActWarning[] = [];
  const action = readAction(text);
  const name = action.name;
  if (name !== action.rawName)
    warnings.push({
      code: 'action-trimmed',
      message: `Whitespace around the action name ${excerpt(action.rawName)} removed`,
    });
  const thought = readThought(text, action.lineStart, warnings);
  const args = readArguments(text, action.inputAfter, warnings);
  if (args === undefined) {
    const open = text.indexOf('{', action.inputAfter);
    const end = open < 0 ? -1 : findObjectEnd(text, open);
    throw ToolBenchError.reactParse(
      'invalid-action-input',
      `The Action Input of "${name}" is not a JSON object and no arguments could be read from it: ${excerpt(text.slice(action.inputAfter).trim())}`,
      {
        action: name,
        complete: end >= 0 && findTurnLine(text, action.inputAfter, open) < 0 && action.final(end),
        end: end >= 0 ? end : text.length,
      },
    );
  }
  const complete = args.complete && action.final(args.end);
  return {
    thought,
    action: name,
    actionInput: args.actionInput,
    rawActionInput: args.raw,
    parsedBy: args.parsedBy,
    complete,
    end: complete ? args.end : text.length,
    warnings,
  };
}
