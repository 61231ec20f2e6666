/**
 * The Coil and receipt rows every tool call stores, and the lineage the receipt routes read
 * back, on a driver connection of their own beside Prisma's (SQLite: better-sqlite3;
 * PostgreSQL: pg), behind one interface. Every other query of the service goes through Prisma.
 *
 * Why by hand: this is the only path a stream of agents drives. Through Prisma 6 a stored Coil
 * and its receipt cost about 1 ms of the event loop (the client engine compiles every query,
 * raw ones too, in WASM on the main thread, and the SQLite adapter prepares each statement
 * anew); on their own connection, with statements prepared once and the writes of concurrent
 * requests committed together (db/group-commit.ts), a few tens of microseconds
 * (docs/performance.md). The SQL is the same text Prisma ran before, on the schema's own
 * columns (prisma/schema.prisma); tests/api/coil-persistence.test.ts reads the rows back
 * through Prisma on both databases, and tests/unit/coil-rows.test.ts pins the stored
 * timestamp format to Prisma's.
 */
import { config } from '../config';
import { providerOf } from './client';
import { groupCommit, type GroupCommit } from './group-commit';
import { isDatabaseUnavailable } from './unavailable';
import type { CoilRowStore, CoilWithReceiptRows, LineageRows } from './coil-rows';
import { openPostgresCoilRows } from './coil-rows-postgres';
import { openSqliteCoilRows } from './coil-rows-sqlite';
import { writeBoundMs } from './postgres-pool';

/** Pairs per transaction: bounds one commit's time on the event loop, and PostgreSQL's 65535 parameters. */
const MAX_PAIRS_PER_COMMIT = 256;

let store: CoilRowStore | undefined;
let writes: GroupCommit<CoilWithReceiptRows> | undefined;

function coilRowStore(): CoilRowStore {
  if (store) return store;
  const url = config().databaseUrl;
  store = providerOf(url) === 'postgresql' ? openPostgresCoilRows(url, config().databaseTimeouts) : openSqliteCoilRows(url);
  return store;
}

/** Stores a Coil and its receipt; resolves once they are committed. */
export function writeCoilWithReceipt(pair: CoilWithReceiptRows): Promise<void> {
  writes ??= groupCommit((pairs) => coilRowStore().insert(pairs), {
    maxBatch: MAX_PAIRS_PER_COMMIT,
    timeoutMs: writeBoundMs(config().databaseTimeouts),
    retryAlone: (error) => !isDatabaseUnavailable(error),
  });
  return writes.write(pair);
}

export function readLineageRows(manifestHash: string): Promise<LineageRows> {
  return coilRowStore().lineage(manifestHash);
}

export async function closeCoilRows(): Promise<void> {
  const open = store;
  store = undefined;
  writes = undefined;
  await open?.close();
}
