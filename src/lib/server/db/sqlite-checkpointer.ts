/**
 * WAL checkpoints of the embedded SQLite file, run on a worker thread instead of the event loop.
 *
 * Why: both of this process's connections (Prisma's adapter and the row store of
 * db/coil-rows-sqlite.ts) are better-sqlite3, which runs every statement synchronously on the
 * calling thread. With SQLite's automatic checkpoint, the commit that takes the log past 1,000
 * pages also copies the log into the database file and syncs both to disk, inside that commit,
 * on the event loop: every request in flight waits. Measured on the 2-core bench machine at a
 * quarter of validate-coil's peak: busy stretches of 10 to 25 ms with better-sqlite3's commit
 * on top of the CPU profile, several times a second, the whole p99 (docs/performance.md).
 *
 * So every connection of the process turns the automatic checkpoint off
 * (`SQLITE_CONNECTION_PRAGMAS`) and this module keeps one worker per file that runs a PASSIVE
 * checkpoint every `CHECKPOINT_EVERY_MS`. A PASSIVE checkpoint never blocks a writer or a
 * reader; commits go on appending to the log while it copies. Durability is unchanged: a
 * commit is in the log before it returns (synchronous = NORMAL), and the checkpoint syncs the
 * log before it copies, exactly as the automatic one did.
 *
 * If the worker cannot start or dies, the connections turn the automatic checkpoint back on
 * (each registers how, `onCheckpointerLost`), so the log never grows without bound.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { logger } from '../logger';

/** The settings every connection of this process issues on the embedded file. */
export const SQLITE_CONNECTION_PRAGMAS = ['synchronous = NORMAL', 'wal_autocheckpoint = 0'] as const;
/** What a connection issues when the worker is lost: SQLite's own default. */
export const SQLITE_AUTOCHECKPOINT_FALLBACK = 'wal_autocheckpoint = 1000';

/**
 * How often the worker checkpoints. At the bench's write rates the log then stays well under
 * the 1,000 pages (4 MB) at which SQLite's own checkpoint would have run.
 */
const CHECKPOINT_EVERY_MS = 100;

// The worker's source, evaluated as CommonJS: a separate worker file would have to survive
// the app's bundling (SvelteKit's adapter-node and the MCP build) as an asset; a string does.
// It gets the driver's resolved path, so it loads the same better-sqlite3 as the server.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 0 });
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 0');
let stopped = false;
parentPort.on('message', (m) => { if (m === 'stop') { stopped = true; db.close(); parentPort.close(); } });
function tick() {
  if (stopped) return;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    // Another process's checkpoint holds the lock: it does the work this time.
    if (error && error.code !== 'SQLITE_BUSY' && error.code !== 'SQLITE_LOCKED') throw error;
  }
  setTimeout(tick, workerData.everyMs);
}
tick();
`;

interface Checkpointer {
  worker: Worker | null;
  fallbacks: Array<() => void>;
  lost: boolean;
}

const byFile = new Map<string, Checkpointer>();

function lose(file: string, entry: Checkpointer, reason: string): void {
  if (entry.lost) return;
  entry.lost = true;
  logger.error({ event: 'sqlite_checkpointer_lost', reason }, 'WAL checkpoints fall back to the connections');
  for (const fallback of entry.fallbacks) fallback();
  byFile.delete(file);
}

/**
 * Starts the worker of `file` once per process and registers `onCheckpointerLost`, which the
 * calling connection runs to turn SQLite's automatic checkpoint back on if the worker is lost
 * (at once, when the worker cannot be started).
 */
export function keepCheckpointed(file: string, onCheckpointerLost: () => void): void {
  let entry = byFile.get(file);
  if (!entry) {
    entry = { worker: null, fallbacks: [], lost: false };
    byFile.set(file, entry);
    const current = entry;
    try {
      const driver = createRequire(import.meta.url).resolve('better-sqlite3');
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, everyMs: CHECKPOINT_EVERY_MS } });
      worker.unref();
      worker.on('error', (error) => lose(file, current, error?.name ?? 'error'));
      worker.on('exit', (code) => {
        if (byFile.get(file) === current) lose(file, current, `exit ${code}`);
      });
      current.worker = worker;
    } catch (error) {
      current.fallbacks.push(onCheckpointerLost);
      lose(file, current, (error as Error)?.name ?? 'start');
      return;
    }
  }
  if (entry.lost) onCheckpointerLost();
  else entry.fallbacks.push(onCheckpointerLost);
}

/** Stops the worker of `file` (at shutdown, after its connections closed). */
export async function stopCheckpointer(file: string): Promise<void> {
  const entry = byFile.get(file);
  if (!entry?.worker) return;
  byFile.delete(file);
  const exited = new Promise((resolve) => entry.worker!.once('exit', resolve));
  entry.worker.postMessage('stop');
  await exited;
}
