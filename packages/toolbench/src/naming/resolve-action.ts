export type ActionMatch = 'exact' | 'suffix';

export interface ResolvedAction {
  /** The function the call goes to. */
  readonly name: string;
  readonly match: ActionMatch;
  /** Every function whose name ends with the action, in list order. */
  readonly candidates: readonly string[];
  /** More than one function ends with the action: the choice depends on list order. */
  readonly ambiguous: boolean;
}

export interface ResolveActionOptions {
  /**
   * `reference` (default): the first function whose name ends with the action, even when a later
   * one equals it (rapidapi.py L344-348). `tolerant`: an exact match wins, then the first suffix
   * match.
   */
  readonly mode?: 'reference' | 'tolerant';
}

/**
 * Resolves a model's action to a function name the way the reference dispatch does: by suffix.
 * An empty action therefore resolves to the first function, and a shortened name to the first
 * function it ends. Returns `undefined` when no name ends with the action. The action is not
 * trimmed here (the reference does not trim it either).
 */
export function resolveToolBenchAction(
  action: string,
  functionNames: readonly string[],
  options: ResolveActionOptions = {},
): ResolvedAction | undefined {
  const candidates = functionNames.filter((name) => name.endsWith(action));
  const first = candidates[0];
  if (first === undefined) return undefined;
  const exact = options.mode === 'tolerant' && candidates.includes(action);
  return {
    name: exact ? action : first,
    match: exact || first === action ? 'exact' : 'suffix',
    candidates,
    ambiguous: candidates.length > 1,
  };
}
