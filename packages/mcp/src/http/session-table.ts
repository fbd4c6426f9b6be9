import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { SkeinMcpServer } from '../server/skein-mcp-server.js';

export interface Session {
  readonly server: SkeinMcpServer;
  readonly transport: StreamableHTTPServerTransport;
  /**
   * The caller who opened it (none without auth): a request of another caller with its id is
   * answered as if there were no such session, so a leaked session id is worth nothing.
   */
  readonly principal: string | undefined;
}

/** The open sessions by id, and those still being initialized (they count towards the limit). */
export class SessionTable {
  readonly #open = new Map<string, Session>();
  readonly #starting = new Set<Session>();

  get size(): number {
    return this.#open.size + this.#starting.size;
  }

  get(id: string): Session | undefined {
    return this.#open.get(id);
  }

  starting(session: Session): void {
    this.#starting.add(session);
  }

  /** The session's `initialize` was answered: open under its id (none if it failed). */
  started(session: Session): void {
    this.#starting.delete(session);
    const id = session.transport.sessionId;
    if (id !== undefined) this.#open.set(id, session);
  }

  delete(session: Session): void {
    this.#starting.delete(session);
    const id = session.transport.sessionId;
    if (id !== undefined && this.#open.get(id) === session) this.#open.delete(id);
  }

  all(): Session[] {
    return [...this.#open.values(), ...this.#starting];
  }
}
