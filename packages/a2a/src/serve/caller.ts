import { ServerCallContext } from '@a2a-js/sdk/server';
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

/**
 * A call context for `principal` (none: a server without `authorize`), as the HTTP layer makes
 * one for a request of that caller: what reads a task's push configs, which the store keeps per
 * caller, for a run no request started (a woken wait, the app's own `send`).
 */
export function contextOf(principal: string | undefined): ServerCallContext {
  return new ServerCallContext(
    principal === undefined ? {} : { user: { isAuthenticated: true, userName: principal } },
  );
}

/** Where a call's context holds the signal that its client went away (see `clientGone`). */
const CLIENT_GONE = 'skein.a2a.clientGone';

/**
 * Gives the call `context` the signal that its client went away (the HTTP layer aborts it when
 * the connection closes). A stream waiting for its next event cannot be returned from outside
 * (an async generator takes `return()` only once its wait is over), so it listens to this.
 */
export function setClientGone(context: ServerCallContext, signal: AbortSignal): void {
  context.state.set(CLIENT_GONE, signal);
}

/** The signal that the client of a call went away, when the transport gives one. */
export function clientGone(context: ServerCallContext): AbortSignal | undefined {
  const signal = context.state.get(CLIENT_GONE);
  return signal instanceof AbortSignal ? signal : undefined;
}
