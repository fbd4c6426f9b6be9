import { InvalidArgumentError } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCliArguments } from './cli-arguments.js';

describe('parseCliArguments', () => {
  it('reads --db, --port and --poll, with defaults', () => {
    expect(parseCliArguments(['--db', 'a.db'])).toEqual({
      db: 'a.db',
      port: 4319,
      pollIntervalMs: 500,
    });
    expect(parseCliArguments(['--db=a.db', '--port', '0', '--poll', '50'])).toEqual({
      db: 'a.db',
      port: 0,
      pollIntervalMs: 50,
    });
    expect(parseCliArguments(['--help'])).toBeUndefined();
  });

  it('takes every port from 0 to 65535 and refuses anything else, naming the option', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65_535 }), (port) => {
        expect(parseCliArguments(['--db', 'x', '--port', String(port)])?.port).toBe(port);
      }),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 65_536 }).map(String),
          fc.integer({ max: -1 }).map(String),
          fc.string().filter((s) => !/^\d+$/.test(s) || Number(s) > 65_535),
        ),
        (text) => {
          let caught: unknown;
          try {
            parseCliArguments(['--db', 'x', `--port=${text}`]);
          } catch (error) {
            caught = error;
          }
          expect(InvalidArgumentError.isInstance(caught)).toBe(true);
          expect((caught as InvalidArgumentError).argument).toBe('port');
        },
      ),
    );
  });

  it('needs --db and refuses unknown options', () => {
    expect(() => parseCliArguments([])).toThrow(/--db is required/);
    expect(() => parseCliArguments(['--db', 'x', '--host', '0.0.0.0'])).toThrow(/--host/);
  });
});
