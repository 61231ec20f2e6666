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
 *
 * A database that does not answer must not hold every later write behind one batch: a batch
 * that has not committed within `timeoutMs` fails its writers (each gets the caller's 503) and
 * the next batch starts; the abandoned commit's late outcome is ignored (the rows are written
 * with ON CONFLICT DO NOTHING, so a retry that finds them stored is harmless). A batch that
 * failed because the database did not answer is not retried write by write, which would wait
 * as long again for each.
 */
import { DatabaseTimeoutError } from './unavailable';

export type CommitBatch<T> = (items: T[]) => Promise<void>;

export interface GroupCommitOptions {
  /** Writes per commit at most. */
  maxBatch: number;
  /** How long one commit may take before its writers are failed with a DatabaseTimeoutError. */
  timeoutMs: number;
  /** Whether a batch that failed with this error is tried again write by write (default: always). */
  retryAlone?: (error: unknown) => boolean;
}

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface GroupCommit<T> {
  /** Resolves once the item is committed; rejects with the commit's error. */
  write(item: T): Promise<void>;
}

export function groupCommit<T>(commit: CommitBatch<T>, options: GroupCommitOptions): GroupCommit<T> {
  const { maxBatch, timeoutMs, retryAlone = () => true } = options;
  let queue: Pending<T>[] = [];
  let scheduled = false;
  let running = false;

  function schedule(): void {
    if (scheduled || running) return;
    scheduled = true;
    setImmediate(() => void run());
  }

  /** The commit of these items, failed with a DatabaseTimeoutError once it has taken `timeoutMs`. */
  function boundedCommit(items: T[]): Promise<void> {
    const committing = commit(items);
    // An abandoned commit that fails later has nobody left to tell.
    committing.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DatabaseTimeoutError(timeoutMs)), timeoutMs);
    });
    return Promise.race([committing, timedOut]).finally(() => clearTimeout(timer));
  }

  async function run(): Promise<void> {
    scheduled = false;
    running = true;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    try {
      await boundedCommit(batch.map((p) => p.item));
      for (const p of batch) p.resolve();
    } catch (error) {
      // One bad write must not fail the others that happened to share its transaction: each
      // is committed alone, and only the ones that fail alone are refused. A database that did
      // not answer fails them all at once.
      if (batch.length === 1 || !retryAlone(error)) for (const p of batch) p.reject(error);
      else
        for (const [i, p] of batch.entries()) {
          try {
            await boundedCommit([p.item]);
            p.resolve();
          } catch (alone) {
            p.reject(alone);
            if (!retryAlone(alone)) {
              for (const rest of batch.slice(i + 1)) rest.reject(alone);
              break;
            }
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
