import { EventEmitter } from 'eventemitter3';
import { ListenerError } from '../errors/listener-error.js';
import { plainCopy } from '../util/with-entry.js';

/** What events of a branch or child thread carry of where it sits (a thread's parent link). */
interface ThreadLink {
  readonly threadId: string;
  readonly branchPath: string;
  readonly rootThreadId: string;
}

import type { SkeinEventMap } from './event-map.js';

type Listeners = { [K in keyof SkeinEventMap]: (payload: SkeinEventMap[K]) => void };
type Name = keyof SkeinEventMap;
type Listener<T extends Name> = EventEmitter.EventListener<Listeners, T>;
type AnyListener = (payload: unknown) => void;

function threadIdOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null || !Object.hasOwn(payload, 'threadId'))
    return undefined;
  const id = (payload as { threadId: unknown }).threadId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The engine's typed event emitter (eventemitter3). A listener that throws never breaks what the
 * engine was doing (a node, a checkpoint, a message being added) nor keeps later listeners from
 * running: the error goes to `error` listeners as a `ListenerError`, and when there are none (or
 * an `error` listener throws too) to `process.emitWarning`.
 */
/** What the events of a branch or child thread carry besides their own thread id. */
export interface ThreadScope {
  readonly parentThreadId: string;
  readonly branchPath: string;
  readonly rootThreadId: string;
}

export class SkeinEmitter extends EventEmitter<Listeners> {
  // The child's link itself: a scope object is made only for an event someone listens to.
  readonly #scopes = new Map<string, ThreadLink>();
  // One guard per listener and event, so `off(event, fn)` finds what `on(event, fn)` added.
  readonly #guards = new WeakMap<object, Map<Name, AnyListener>>();
  readonly #originals = new WeakMap<object, AnyListener>();

  /**
   * Events of `threadId` carry its parent's id, its branch path and its root's id from now on
   * (until `unscopeThread`): a branch's events name their parent wherever they are emitted, with
   * no cost for threads without a parent.
   * @internal
   */
  scopeThread(threadId: string, link: ThreadLink): void {
    this.#scopes.set(threadId, link);
  }

  /** @internal */
  unscopeThread(threadId: string): void {
    this.#scopes.delete(threadId);
  }

  // One payload per event: no rest array per call, and eventemitter3's two-argument fast path.
  override emit<T extends Name>(
    event: T,
    ...args: EventEmitter.ArgumentMap<Listeners>[Extract<T, Name>]
  ): boolean;
  override emit(event: Name, payload?: unknown): boolean {
    // Scoped payloads are built only for events someone listens to.
    if (this.#scopes.size !== 0 && this.listenerCount(event) !== 0) {
      const id = threadIdOf(payload);
      const link = id === undefined ? undefined : this.#scopes.get(id);
      if (link) {
        const scoped = plainCopy(payload as object) as Record<string, unknown>;
        scoped.parentThreadId = link.threadId;
        scoped.branchPath = link.branchPath;
        scoped.rootThreadId = link.rootThreadId;
        return super.emit(event, scoped as never);
      }
    }
    return super.emit(event, payload as never);
  }

  override on<T extends Name>(event: T, fn: Listener<T>, context?: unknown): this {
    return super.on(event, this.#guard(event, fn) as Listener<T>, context);
  }

  override addListener<T extends Name>(event: T, fn: Listener<T>, context?: unknown): this {
    return super.addListener(event, this.#guard(event, fn) as Listener<T>, context);
  }

  override once<T extends Name>(event: T, fn: Listener<T>, context?: unknown): this {
    return super.once(event, this.#guard(event, fn) as Listener<T>, context);
  }

  override off<T extends Name>(
    event: T,
    fn?: Listener<T>,
    context?: unknown,
    once?: boolean,
  ): this {
    return super.off(event, this.#guarded(event, fn), context, once);
  }

  override removeListener<T extends Name>(
    event: T,
    fn?: Listener<T>,
    context?: unknown,
    once?: boolean,
  ): this {
    return super.removeListener(event, this.#guarded(event, fn), context, once);
  }

  override listeners<T extends Name>(event: T): Listener<T>[] {
    return super.listeners(event).map((g) => (this.#originals.get(g) ?? g) as Listener<T>);
  }

  #guarded<T extends Name>(event: T, fn: Listener<T> | undefined): Listener<T> | undefined {
    if (fn === undefined) return undefined;
    return (this.#guards.get(fn as object)?.get(event) ?? fn) as Listener<T>;
  }

  #guard(event: Name, fn: object): AnyListener {
    let byEvent = this.#guards.get(fn);
    if (!byEvent) {
      byEvent = new Map();
      this.#guards.set(fn, byEvent);
    }
    let guard = byEvent.get(event);
    if (!guard) {
      const listener = fn as AnyListener;
      const report = (error: unknown, payload: unknown) => this.#failed(event, payload, error);
      guard = function (this: unknown, payload: unknown) {
        try {
          listener.call(this, payload);
        } catch (error) {
          report(error, payload);
        }
      };
      byEvent.set(event, guard);
      this.#originals.set(guard, listener);
    }
    return guard;
  }

  /**
   * Reports a listener that threw, as the guard of `on` does: for listeners an engine part calls
   * itself (a thread's subscribers).
   * @internal
   */
  listenerFailed(event: Name, payload: unknown, cause: unknown): void {
    this.#failed(event, payload, cause);
  }

  #failed(event: Name, payload: unknown, cause: unknown): void {
    const error = new ListenerError(event, cause);
    if (event !== 'error' && this.listenerCount('error') > 0) {
      const threadId = threadIdOf(payload);
      this.emit('error', { event, error, ...(threadId === undefined ? {} : { threadId }) });
      return;
    }
    globalThis.process?.emitWarning?.(error);
  }
}
