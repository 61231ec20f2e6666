/**
 * Group commit: the writes that arrive while the event loop handles one round of I/O are
 * committed together, in one transaction, and each caller's promise settles only after that
 * commit. Nothing is answered before it is stored (a 200 still means the row is durable, as
 * tests/api/durability.test.ts checks); what is saved is the cost of a commit per request.
 * With 64 requests in flight, SQLite writes each touched index page to its log once per batch
 * instead of once per request, and PostgreSQL makes one round trip and one fsync per batch
 * (docs/performance.md).
 *
 * A batch is committed in the event loop's check phase (`setImmediate`), after every request
 * whose body arrived in the same poll phase has queued its write; one batch runs at a time, and
 * the writes queued meanwhile form the next. Alone, a write waits for no more than that one
 * turn of the loop.
 */
export type CommitBatch<T> = (items: T[]) => Promise<void>;

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupCommit<T> {
  /** Resolves once the item is committed; rejects with the commit's error. */
  write(item: T): Promise<void>;
}

export function groupCommit<T>(commit: CommitBatch<T>, maxBatch: number): GroupCommit<T> {
  let queue: Pending<T>[] = [];
  let scheduled = false;
  let running = false;

  function schedule(): void {
    if (scheduled || running) return;
    scheduled = true;
    setImmediate(() => void run());
  }

  async function run(): Promise<void> {
    scheduled = false;
    running = true;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    try {
      await commit(batch.map((p) => p.item));
      for (const p of batch) p.resolve();
    } catch (error) {
      // One bad write must not fail the others that happened to share its transaction: each
      // is committed alone, and only the ones that fail alone are refused.
      if (batch.length === 1) batch[0]!.reject(error);
      else
        for (const p of batch) {
          try {
            await commit([p.item]);
            p.resolve();
          } catch (alone) {
            p.reject(alone);
          }
        }
    } finally {
      running = false;
      if (queue.length > 0) schedule();
    }
  }

  return {
    write(item: T): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      });
    },
  };
}
