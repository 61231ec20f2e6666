/**
 * Group commit (db/group-commit.ts): writes queued in the same turn of the event loop share one
 * commit, nobody's promise settles before that commit has, and a write that fails fails alone.
 */
import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../src/lib/server/db/group-commit';

describe('groupCommit', () => {
  it('commits the writes of one turn of the event loop together, in order, at most maxBatch at a time', async () => {
    const commits: number[][] = [];
    const writer = groupCommit<number>(async (items) => {
      commits.push(items);
    }, 16);
    await Promise.all(Array.from({ length: 40 }, (_, i) => writer.write(i)));
    expect(commits.map((c) => c.length)).toEqual([16, 16, 8]);
    expect(commits.flat()).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('settles a write only after its commit has finished', async () => {
    let committed = false;
    const writer = groupCommit<string>(async () => {
      await new Promise((r) => setTimeout(r, 20));
      committed = true;
    }, 8);
    await writer.write('a');
    expect(committed).toBe(true);
  });

  it('queues the writes that arrive during a commit for the next one', async () => {
    const commits: string[][] = [];
    let release!: () => void;
    const writer = groupCommit<string>(async (items) => {
      commits.push(items);
      if (items.includes('first')) await new Promise<void>((r) => (release = r));
    }, 8);
    const first = writer.write('first');
    await new Promise((r) => setImmediate(r));
    const later = [writer.write('b'), writer.write('c')];
    release();
    await Promise.all([first, ...later]);
    expect(commits).toEqual([['first'], ['b', 'c']]);
  });

  it('fails only the write that fails alone, and commits the others of its batch', async () => {
    const stored: string[] = [];
    const writer = groupCommit<string>(async (items) => {
      if (items.includes('bad')) throw new Error('constraint failed');
      stored.push(...items);
    }, 8);
    const results = await Promise.allSettled(['a', 'bad', 'b'].map((x) => writer.write(x)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(stored.sort()).toEqual(['a', 'b']);
  });
});
