import { pyStrip } from '../python/python-text.js';

// Where ToolLLaMA's own find-based parser (issue 10 §4) puts the action and its input: the first
// "\nAction: " and the first "\nAction Input: " anywhere, the name being what lies between, stripped.
export const REFERENCE_ACTION_MARKER = '\nAction: ';
export const REFERENCE_INPUT_MARKER = '\nAction Input: ';

export type ReferenceMarkers =
  /** The markers give a one-line, non-empty name: the tolerant parser reads the step from them. */
  | {
      readonly kind: 'valid';
      /** Start of the line holding "Action: ". */
      readonly actionLineStart: number;
      /** What lies between the markers, unstripped. */
      readonly rawName: string;
      readonly name: string;
      /** Index just after "Action Input:" (the space after it is read as leading whitespace). */
      readonly inputAfter: number;
    }
  /**
   * "\nAction Input: " is there, but no usable name precedes it. Nothing later can change that,
   * since both markers are first occurrences: the line-anchored reading is final.
   */
  | { readonly kind: 'dead'; readonly decidedAt: number }
  /** No "\nAction Input: " yet: more text could still make the markers valid. */
  | { readonly kind: 'pending' };

export function findReferenceMarkers(text: string): ReferenceMarkers {
  const input = text.indexOf(REFERENCE_INPUT_MARKER);
  if (input < 0) return { kind: 'pending' };
  const action = text.indexOf(REFERENCE_ACTION_MARKER);
  const dead = { kind: 'dead', decidedAt: input + REFERENCE_INPUT_MARKER.length } as const;
  if (action < 0 || action > input) return dead;
  const rawName = text.slice(action + REFERENCE_ACTION_MARKER.length, input);
  const name = pyStrip(rawName);
  if (name === '' || name.includes('\n')) return dead;
  return {
    kind: 'valid',
    actionLineStart: action + 1,
    rawName,
    name,
    inputAfter: input + REFERENCE_INPUT_MARKER.length - 1,
  };
}
