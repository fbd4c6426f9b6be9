import type { SkeinEngine } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import type { GuardedTextMode } from './event-translator.js';

/** Checks a handler's `guardedText` option (undefined: chosen per run, see `guardedTextOf`). */
export function checkGuardedText(mode: unknown): GuardedTextMode | undefined {
  if (mode === undefined || mode === 'hold' || mode === 'stream') return mode;
  throw new InvalidArgumentError(
    'guardedText',
    `guardedText must be 'hold' or 'stream', got ${JSON.stringify(mode)}`,
  );
}

/**
 * How a run's text goes out: as the app chose, else held whenever the engine has a guardrail
 * registered (asked at each run, so guardrails registered later count), else streamed.
 */
export function guardedTextOf(
  engine: Pick<SkeinEngine, 'guardrails'>,
  chosen: GuardedTextMode | undefined,
): GuardedTextMode {
  return chosen ?? (engine.guardrails.size > 0 ? 'hold' : 'stream');
}
