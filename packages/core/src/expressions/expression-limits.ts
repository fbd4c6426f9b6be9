// Expressions are parsed and evaluated by recursion, one stack frame (or a few) per level of
// nesting. These bounds keep every expression that compiles far inside Node's stack, so compile
// refuses what evaluation could not run, and no expression costs more than a few milliseconds.

/** Deepest nesting: parentheses, lists, `!`/`not`/`-`, and chains of binary operators. */
export const MAX_EXPRESSION_DEPTH = 256;

/** Most tokens (names, literals, operators) in one expression. */
export const MAX_EXPRESSION_TOKENS = 10_000;
