import type { Published } from './check-publications.js';
import { resourceNotFound } from './publication-errors.js';
import { isPublished } from './read-resource.js';

/**
 * One connection's `resources/subscribe`s: a published resource that can say it changed is
 * watched while subscribed, and each change is sent to the client as
 * `notifications/resources/updated`. Subscribing twice to one URI is one subscription;
 * unsubscribing from one not subscribed to is no error (the client's view is already right).
 */
export class Subscriptions {
  readonly #published: Published;
  readonly #updated: (uri: string) => void;
  readonly #watching = new Map<string, (() => void) | undefined>();

  constructor(published: Published, updated: (uri: string) => void) {
    this.#published = published;
    this.#updated = updated;
  }

  subscribe(uri: string): void {
    if (!isPublished(this.#published, uri)) throw resourceNotFound(uri);
    if (this.#watching.has(uri)) return;
    const resource = this.#published.resources.get(uri);
    this.#watching.set(
      uri,
      resource?.watch?.(() => this.#updated(uri)),
    );
  }

  unsubscribe(uri: string): void {
    const stop = this.#watching.get(uri);
    this.#watching.delete(uri);
    stop?.();
  }

  /** Stops watching everything (the connection closed). */
  close(): void {
    for (const uri of [...this.#watching.keys()]) this.unsubscribe(uri);
  }
}
