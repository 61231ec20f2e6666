// The bench's two ceilings (issue 37): what this machine can do for a request at all, measured
// in the same run as the service so the machine's drift cancels.
//
//   CEILING_MODE=bare     read the body, parse it as JSON, SHA-256 it, answer
//   CEILING_MODE=durable  the same, plus one stored row per request: SQLite in WAL mode with
//                         synchronous=NORMAL (the service's own settings) and a group commit
//                         (every row that arrived in one turn of the event loop commits in one
//                         transaction, then their answers go out), or PostgreSQL when
//                         DATABASE_URL is a postgresql:// URL (one multi-row INSERT per batch,
//                         one batch in flight at a time)
//
// Its answer has the length of the service's answer to the same route (the bench tells it
// with POST /__ceiling/answer-length before it loads the route), so both send the same bytes
// over the wire. No framework, no schema, no domain, no guard: a ceiling, not a competitor.
import { createHash } from 'node:crypto';
import http from 'node:http';

const MODE = process.env.CEILING_MODE ?? 'bare';
const PORT = Number(process.env.PORT ?? 3998);
const DATABASE_URL = process.env.DATABASE_URL ?? '';
const answerLengths = new Map();

/** Stores rows in batches: one commit per turn of the event loop, whatever arrived in it. */
async function openRowStore() {
  if (/^postgres(ql)?:\/\//i.test(DATABASE_URL)) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    await pool.query(
      'CREATE TABLE IF NOT EXISTS bench_ceiling_row (id BIGSERIAL PRIMARY KEY, hash TEXT NOT NULL, body TEXT NOT NULL, stored_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    return batchedStore(async (rows) => {
      const values = rows.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(', ');
      await pool.query(
        `INSERT INTO bench_ceiling_row (hash, body) VALUES ${values}`,
        rows.flatMap((r) => [r.hash, r.body]),
      );
    });
  }
  const { default: Database } = await import('better-sqlite3');
  const file = DATABASE_URL.replace(/^file:/, '') || 'ceiling.db';
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE IF NOT EXISTS bench_ceiling_row (id INTEGER PRIMARY KEY, hash TEXT NOT NULL, body TEXT NOT NULL, stored_at TEXT NOT NULL)',
  );
  const insert = db.prepare('INSERT INTO bench_ceiling_row (hash, body, stored_at) VALUES (?, ?, ?)');
  const commit = db.transaction((rows) => {
    const at = new Date().toISOString();
    for (const r of rows) insert.run(r.hash, r.body, at);
  });
  return batchedStore(async (rows) => commit(rows));
}

function batchedStore(write) {
  let pending = [];
  let writing = false;
  const flush = async () => {
    if (writing || pending.length === 0) return;
    writing = true;
    const batch = pending;
    pending = [];
    try {
      await write(batch);
      for (const r of batch) r.done();
    } catch (error) {
      for (const r of batch) r.fail(error);
    }
    writing = false;
    if (pending.length) setImmediate(flush);
  };
  return (hash, body) =>
    new Promise((done, fail) => {
      pending.push({ hash, body, done, fail });
      if (pending.length === 1) setImmediate(flush);
    });
}

const store = MODE === 'durable' ? await openRowStore() : undefined;

function answer(res, status, path, hash) {
  const base = `{"ok":true,"hash":"${hash}","pad":"`;
  const length = answerLengths.get(path) ?? 0;
  const text = base + 'x'.repeat(Math.max(0, length - base.length - 2)) + '"}';
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/__ceiling/answer-length') {
        const { route, length, status } = JSON.parse(raw.toString('utf8'));
        answerLengths.set(route, length);
        answerLengths.set(`${route} status`, status);
        res.writeHead(204).end();
        return;
      }
      let parsed;
      try {
        parsed = raw.length ? JSON.parse(raw.toString('utf8')) : {};
      } catch {
        res.writeHead(400).end();
        return;
      }
      const hash = createHash('sha256').update(raw).digest('hex');
      const status = answerLengths.get(`${path} status`) ?? 200;
      if (!store || req.method !== 'POST') return answer(res, status, path, hash);
      store(hash, JSON.stringify(parsed)).then(
        () => answer(res, status, path, hash),
        () => res.writeHead(500).end(),
      );
    });
  })
  .listen(PORT, '127.0.0.1', () => console.error(`ceiling server (${MODE}) ready`));
