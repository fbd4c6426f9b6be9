/** The schema version before and after a store's migrations ran. */
export interface MigrationResult {
  readonly from: number;
  readonly to: number;
}

/** Throws unless versions run 1, 2, 3… without gaps: a broken list is a bug in the store. */
export function checkMigrationOrder<M extends { readonly version: number }>(
  migrations: readonly M[],
): void {
  migrations.forEach((migration, i) => {
    if (migration.version !== i + 1)
      throw new Error(
        `Migration list out of order: entry ${i} has version ${migration.version}, expected ${i + 1}`,
      );
  });
}
