import { randomUUID } from 'node:crypto';
import type { SkeinEngine } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { notAllowed } from './refusals.js';

/**
 * The engine that may fork threads from the page, or why none may. Asked before the request's
 * body is read, like a resume: an inspector that does not allow forking reads nothing.
 */
export function forkingEngine(
  engine: SkeinEngine | undefined,
  allowFork: boolean,
  threadId: string,
): SkeinEngine {
  if (!allowFork) throw notAllowed('fork', threadId, 'read-only');
  if (engine === undefined) throw notAllowed('fork', threadId, 'no-engine');
  return engine;
}

/** The checkpoint id of a fork request's body `{ at }`. */
export function forkPoint(body: unknown): string {
  const at =
    typeof body === 'object' && body !== null && !Array.isArray(body) && 'at' in body
      ? body.at
      : undefined;
  if (typeof at !== 'string' || at === '')
    throw new InvalidArgumentError('at', 'The body must be a JSON object { "at": checkpointId }');
  return at;
}

export interface StartedFork {
  readonly threadId: string;
  readonly forkedFrom: { readonly threadId: string; readonly checkpointId: string };
}

/**
 * Forks `threadId` at checkpoint `at` under a new random id and returns once the fork is in the
 * store, so the page can open it: at once for a fork that stays PAUSED, WAITING or ended, at its
 * first checkpoint for one that runs on (the run then goes on in the background, followed live
 * like a resumed one). An unknown thread or checkpoint, or a branch, fails before anything runs.
 */
export function startFork(
  engine: SkeinEngine,
  threadId: string,
  at: string,
  onBackgroundError: (error: unknown, forkId: string) => void,
): Promise<StartedFork> {
  const forkId = randomUUID();
  const started: StartedFork = { threadId: forkId, forkedFrom: { threadId, checkpointId: at } };
  return new Promise((resolve, reject) => {
    let answered = false;
    const answer = () => {
      answered = true;
      resolve(started);
    };
    engine
      .fork(threadId, {
        at,
        threadId: forkId,
        onEvent: (event) => {
          if (!answered && event.type === 'checkpoint:saved' && event.threadId === forkId) answer();
        },
      })
      .then(
        () => {
          if (!answered) answer();
        },
        (error: unknown) => {
          if (answered) onBackgroundError(error, forkId);
          else {
            answered = true;
            reject(error);
          }
        },
      );
  });
}
