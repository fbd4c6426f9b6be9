import type { SqliteConnection, SqliteDriver } from '../driver/connection.js';
import type { Migration } from './migrations.js';

/** Schema objects by name: `"table threads"` → its CREATE statement with whitespace collapsed. */
export type SchemaShape = ReadonlyMap<string, string>;

interface SchemaRow {
  readonly type: string;
  readonly name: string;
  readonly sql: string | null;
}

function normalize(sql: string | null): string {
  return (sql ?? '').replace(/\s+/g, ' ').trim();
}

/** Differences between what a file holds and what its schema version promises, one line each. */
export function compareShapes(found: SchemaShape, expected: SchemaShape): string[] {
  const problems: string[] = [];
  for (const [key, sql] of expected) {
    const actual = found.get(key);
    if (actual === undefined) problems.push(`${key} is missing`);
    else if (actual !== sql) problems.push(`${key} is "${actual}", expected "${sql}"`);
  }
  for (const key of found.keys()) if (!expected.has(key)) problems.push(`unexpected ${key}`);
  return problems;
}

/** Every table, index, view and trigger except SQLite's own (`sqlite_*`). */
export function readShape(db: SqliteConnection): SchemaShape {
  const rows = db
    .prepare<[], SchemaRow>(
      "SELECT type, name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name",
    )
    .all();
  return new Map(rows.map((row) => [`${row.type} ${row.name}`, normalize(row.sql)]));
}

const expectedShapes = new WeakMap<readonly Migration[], Map<number, SchemaShape>>();

/**
 * The shape a database has after `migrations[0..version)`: found by running them on an in-memory
 * database (of `driver`), so it can never drift from what the migrations really create. SQLite
 * keeps each statement's text as written, so the shape is the same whichever driver made it.
 */
export function expectedShape(
  driver: SqliteDriver,
  migrations: readonly Migration[],
  version: number,
): SchemaShape {
  let byVersion = expectedShapes.get(migrations);
  if (!byVersion) {
    byVersion = new Map();
    expectedShapes.set(migrations, byVersion);
  }
  const cached = byVersion.get(version);
  if (cached) return cached;
  const db = driver.open(':memory:');
  try {
    for (const migration of migrations.slice(0, version)) db.exec(migration.sql);
    const shape = readShape(db);
    byVersion.set(version, shape);
    return shape;
  } finally {
    db.close();
  }
}
