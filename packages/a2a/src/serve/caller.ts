import type { ServerCallContext } from '@a2a-js/sdk/server';
import type { PrincipalEngine, SkeinEngine } from '@skein/core';

/** The engine as a request's caller sees it: all of it, or only the caller's own threads. */
export type EngineView = SkeinEngine | PrincipalEngine;

/**
 * The caller `authorize` named for a request, carried in its call context as an authenticated
 * user (the HTTP layer sets it); undefined when the server names no callers.
 */
export function principalOf(context: ServerCallContext): string | undefined {
  const user = context.user;
  return user?.isAuthenticated ? user.userName : undefined;
}

export function viewFor(engine: SkeinEngine, principal: string | undefined): EngineView {
  return principal === undefined ? engine : engine.forPrincipal(principal);
}
