import { describe, expect, it } from 'vitest';
import { MigrationRegistry } from './migrations.js';

describe('MigrationRegistry', () => {
  it('finds the shortest chain of migrations, and none where there is none', () => {
    const migrations = new MigrationRegistry();
    migrations.add('w', '2', { from: '1', nodes: { a: 'b' } });
    migrations.add('w', '3', [{ from: '2' }, { from: '1b' }]);
    migrations.add('w', '4', { from: '3' });
    expect(migrations.path('w', '1', '4')!.map((s) => s.to)).toEqual(['2', '3', '4']);
    expect(migrations.path('w', '1b', '3')!.map((s) => s.to)).toEqual(['3']);
    expect(migrations.path('w', '4', '1')).toBeUndefined();
    expect(migrations.path('other', '1', '2')).toBeUndefined();
    expect(migrations.reachableFrom('w', '1')).toEqual(['2', '3', '4']);
    expect(() => migrations.add('w', '5', { from: '4', nodes: { a: '' } })).toThrow(/nodes must/);
  });
});
