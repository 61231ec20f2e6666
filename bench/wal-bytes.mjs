// The bytes of write-ahead log one stored tool call costs (issue 27), read from the database's
// own counters while the bench's service stores Coils, one call at a time (every call its own
// commit, the worst case) and 64 at once (the group commit's batches).
//
// SQLite: the WAL file's header gives the page size and a checkpoint sequence number that
// changes each time the log restarts from its beginning; the shared-memory index's header
// gives mxFrame, the frames in the log now (https://sqlite.org/walformat.html). A run across a
// restart cannot be counted and is tried again. PostgreSQL: pg_current_wal_insert_lsn().
import { openSync, readSync, closeSync } from 'node:fs';
import pg from 'pg';

function readAt(file, offset, length) {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, offset);
    return buffer;
  } finally {
    closeSync(fd);
  }
}

function sqliteWalState(dbFile) {
  const header = readAt(`${dbFile}-wal`, 0, 32);
  const index = readAt(`${dbFile}-shm`, 0, 48);
  return {
    pageSize: header.readUInt32BE(8),
    generation: `${header.readUInt32BE(12)}:${header.readUInt32BE(16)}`,
    frames: index.readUInt32LE(16),
  };
}

async function calls(base, path, body, count, concurrency) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body() });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function sqliteBytes(dbFile, run, count) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const before = sqliteWalState(dbFile);
    await run();
    const after = sqliteWalState(dbFile);
    if (after.generation === before.generation && after.frames >= before.frames)
      return ((after.frames - before.frames) * (after.pageSize + 24)) / count;
  }
  return null;
}

async function postgresBytes(client, run, count) {
  const lsn = async () => (await client.query('SELECT pg_current_wal_insert_lsn() AS lsn')).rows[0].lsn;
  const before = await lsn();
  await run();
  const after = await lsn();
  const diff = await client.query('SELECT pg_wal_lsn_diff($1, $2)::bigint AS bytes', [after, before]);
  return Number(diff.rows[0].bytes) / count;
}

/** One line: WAL bytes per stored call, one at a time and 64 at once; null when not measurable. */
export async function walBytesPerCall({ base, path, body, database }) {
  const ONE_AT_A_TIME = 40;
  const AT_ONCE = 64;
  const runs = {
    alone: () => calls(base, path, body, ONE_AT_A_TIME, 1),
    together: () => calls(base, path, body, AT_ONCE, 64),
  };
  const kb = (bytes) => (bytes === null ? 'not measured (the log restarted in every try)' : `${(bytes / 1024).toFixed(1)} KB`);
  if (/^postgres(ql)?:\/\//i.test(database)) {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    try {
      const alone = await postgresBytes(client, runs.alone, ONE_AT_A_TIME);
      const together = await postgresBytes(client, runs.together, AT_ONCE);
      return `WAL per stored call (${path}, PostgreSQL): ${kb(alone)} one call at a time, ${kb(together)} with 64 at once`;
    } finally {
      await client.end();
    }
  }
  const dbFile = database.replace(/^file:/, '').split('?')[0];
  const alone = await sqliteBytes(dbFile, runs.alone, ONE_AT_A_TIME);
  const together = await sqliteBytes(dbFile, runs.together, AT_ONCE);
  return `WAL per stored call (${path}, SQLite): ${kb(alone)} one call at a time, ${kb(together)} with 64 at once`;
}
