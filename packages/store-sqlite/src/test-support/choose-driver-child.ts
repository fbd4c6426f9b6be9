// Chooses a driver as an app in another folder would, in a process of its own, so that no
// NODE_PATH (pnpm's scripts set one that leads to the workspace's packages) finds better-sqlite3:
//   node --import tsx choose-driver-child.ts <from>
// `from` is a module path in a folder without better-sqlite3. Prints one JSON line per choice
// (the default, then each driver): `{ choice, driver }` or `{ choice, code, details, message }`.
import { StoreError } from '@skein/spec';
import { chooseDriver } from '../driver/choose-driver.js';
import type { SqliteDriverName } from '../driver/connection.js';

const [from] = process.argv.slice(2);
if (!from) {
  process.stderr.write('usage: choose-driver-child.ts <from>\n');
  process.exit(2);
}
const choices: (SqliteDriverName | undefined)[] = [undefined, 'better-sqlite3', 'node:sqlite'];
for (const choice of choices) {
  try {
    const { name } = chooseDriver(choice, '/tmp/threads.db', from);
    process.stdout.write(`${JSON.stringify({ choice: choice ?? 'default', driver: name })}\n`);
  } catch (error) {
    if (!StoreError.isInstance(error)) throw error;
    const { code, details, message } = error;
    process.stdout.write(
      `${JSON.stringify({ choice: choice ?? 'default', code, details, message })}\n`,
    );
  }
}
