import pg from 'pg';

type Handler = (payload: string) => void;

/**
 * One dedicated connection holding LISTEN for any number of channels, each with its handlers.
 * Connected on first use; LISTEN is issued once per channel and UNLISTEN when its last handler
 * leaves. Notifications arrive in the order each sender's transactions committed.
 */
export class ListenConnection {
  readonly #config: pg.ClientConfig;
  readonly #handlers = new Map<string, Set<Handler>>();
  #client: Promise<pg.Client> | undefined;
  #closed = false;
  /** LISTEN and UNLISTEN go one at a time: pg deprecates overlapping queries on one client. */
  #queue: Promise<unknown> = Promise.resolve();
  #onError: (error: Error) => void;

  constructor(config: pg.ClientConfig, onError: (error: Error) => void) {
    this.#config = config;
    this.#onError = onError;
  }

  #connect(): Promise<pg.Client> {
    this.#client ??= (async () => {
      const client = new pg.Client(this.#config);
      client.on('notification', (message) => {
        const handlers = this.#handlers.get(message.channel);
        if (!handlers) return;
        for (const handler of [...handlers]) handler(message.payload ?? '');
      });
      client.on('error', (error) => {
        if (this.#closed) return;
        this.#onError(error);
        this.#lost(client);
      });
      client.on('end', () => this.#lost(client));
      await client.connect();
      for (const channel of this.#handlers.keys()) await client.query(`listen "${channel}"`);
      return client;
    })();
    const pending = this.#client;
    pending.catch(() => {
      if (this.#client === pending) this.#client = undefined;
    });
    return pending;
  }

  /**
   * The connection went away: connect again (backing off up to 5 s) and listen again to every
   * channel that still has handlers. Notifications sent meanwhile are lost, as NOTIFY's are.
   */
  #lost(client: pg.Client, delayMs = 100): void {
    void this.#client?.then(
      (current) => {
        if (current !== client) return;
        this.#client = undefined;
        this.#retry(delayMs);
      },
      () => {},
    );
  }

  #retry(delayMs: number): void {
    if (this.#closed || this.#handlers.size === 0) return;
    const timer = setTimeout(() => {
      this.#connect().catch(() => this.#retry(Math.min(delayMs * 2, 5_000)));
    }, delayMs);
    timer.unref();
  }

  #query(client: pg.Client, text: string): Promise<unknown> {
    const next = this.#queue.then(() => client.query(text));
    this.#queue = next.catch(() => {});
    return next;
  }

  /** Starts delivering `channel`'s payloads to `handler`; resolves once LISTEN holds. */
  async listen(channel: string, handler: Handler): Promise<() => Promise<void>> {
    let handlers = this.#handlers.get(channel);
    const first = !handlers;
    if (!handlers) {
      handlers = new Set();
      this.#handlers.set(channel, handlers);
    }
    handlers.add(handler);
    const unlisten = async (): Promise<void> => {
      const set = this.#handlers.get(channel);
      if (!set?.delete(handler) || set.size > 0) return;
      this.#handlers.delete(channel);
      if (this.#closed || !this.#client) return;
      await this.#query(await this.#client, `unlisten "${channel}"`).catch(() => {});
    };
    try {
      const connected = this.#client !== undefined;
      const client = await this.#connect();
      // A fresh connection listened to every channel already; an open one needs this one added.
      if (first && connected) await this.#query(client, `listen "${channel}"`);
    } catch (error) {
      // Not listening (the database is unreachable): the caller hears nothing later either.
      await unlisten();
      throw error;
    }
    return unlisten;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#handlers.clear();
    const pending = this.#client;
    this.#client = undefined;
    if (pending) await (await pending.catch(() => undefined))?.end().catch(() => {});
  }
}
