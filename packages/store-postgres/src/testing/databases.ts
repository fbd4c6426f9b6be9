import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The same server and credentials, another database. */
function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Creates databases with fresh names on one server, and drops them again. */
export class TestDatabases {
  readonly #adminUrl: string;
  readonly #created: string[] = [];

  constructor(adminUrl: string) {
    this.#adminUrl = adminUrl;
  }

  async create(): Promise<string> {
    const name = `skein_test_${randomBytes(6).toString('hex')}`;
    await this.#admin(`CREATE DATABASE "${name}"`);
    this.#created.push(name);
    return withDatabase(this.#adminUrl, name);
  }

  /** Drops every database made here; FORCE ends connections a test left open. */
  async dropAll(): Promise<void> {
    for (const name of this.#created.splice(0))
      await this.#admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }

  async #admin(sql: string): Promise<void> {
    const client = new pg.Client({ connectionString: this.#adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }
}
