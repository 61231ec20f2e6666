/**
 * Group commit (db/group-commit.ts): writes queued in the same turn of the event loop share one
 * commit, nobody's promise settles before that commit has, and a write that fails fails alone.
 */
import { describe, expect, it } from 'vitest';
import { groupCommit } from '../../src/lib/server/db/group-commit';
import { DatabaseTimeoutError, isDatabaseUnavailable } from '../../src/lib/server/db/unavailable';

describe('groupCommit', () => {
  it('commits the writes of one turn of the event loop together, in order, at most maxBatch at a time', async () => {
    const commits: number[][] = [];
    const writer = groupCommit<number>(
      async (items) => {
        commits.push(items);
      },
      { maxBatch: 16, timeoutMs: 1000 },
    );
    await Promise.all(Array.from({ length: 40 }, (_, i) => writer.write(i)));
    expect(commits.map((c) => c.length)).toEqual([16, 16, 8]);
    expect(commits.flat()).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('settles a write only after its commit has finished', async () => {
    let committed = false;
    const writer = groupCommit<string>(
      async () => {
        await new Promise((r) => setTimeout(r, 20));
        committed = true;
      },
      { maxBatch: 8, timeoutMs: 1000 },
    );
    await writer.write('a');
    expect(committed).toBe(true);
  });

  it('queues the writes that arrive during a commit for the next one', async () => {
    const commits: string[][] = [];
    let release!: () => void;
    const writer = groupCommit<string>(
      async (items) => {
        commits.push(items);
        if (items.includes('first')) await new Promise<void>((r) => (release = r));
      },
      { maxBatch: 8, timeoutMs: 1000 },
    );
    const first = writer.write('first');
    await new Promise((r) => setImmediate(r));
    const later = [writer.write('b'), writer.write('c')];
    release();
    await Promise.all([first, ...later]);
    expect(commits).toEqual([['first'], ['b', 'c']]);
  });

  it('fails only the write that fails alone, and commits the others of its batch', async () => {
    const stored: string[] = [];
    const writer = groupCommit<string>(
      async (items) => {
        if (items.includes('bad')) throw new Error('constraint failed');
        stored.push(...items);
      },
      { maxBatch: 8, timeoutMs: 1000 },
    );
    const results = await Promise.allSettled(['a', 'bad', 'b'].map((x) => writer.write(x)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(stored.sort()).toEqual(['a', 'b']);
  });

  it('fails the writers of a batch the database does not finish in time, and commits the next batch (never one stall for all)', async () => {
    const commits: string[][] = [];
    const writer = groupCommit<string>(
      async (items) => {
        commits.push(items);
        if (items.includes('hung')) await new Promise(() => undefined);
      },
      { maxBatch: 8, timeoutMs: 50, retryAlone: (error) => !isDatabaseUnavailable(error) },
    );
    const hung = Promise.allSettled([writer.write('hung'), writer.write('beside')]);
    await new Promise((r) => setImmediate(r));
    const later = writer.write('later');
    const results = await hung;
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(DatabaseTimeoutError);
    await later;
    // The hung batch was not retried write by write (each would hang as long again).
    expect(commits).toEqual([['hung', 'beside'], ['later']]);
  });

  it('does not retry write by write a batch that failed because the database did not answer', async () => {
    let calls = 0;
    const writer = groupCommit<string>(
      async () => {
        calls++;
        throw Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
      },
      { maxBatch: 8, timeoutMs: 1000, retryAlone: (error) => !isDatabaseUnavailable(error) },
    );
    const results = await Promise.allSettled(['a', 'b', 'c'].map((x) => writer.write(x)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(calls).toBe(1);
  });
});
