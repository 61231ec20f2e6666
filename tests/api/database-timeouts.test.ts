/**
 * A PostgreSQL that does not answer, through the real server: a table locked by another
 * connection (the statements wait on the lock until the server cancels them) and a connection
 * whose bytes stop flowing (nothing comes back at all, so only the client's own bounds end the
 * wait). Either way every write answers 503 DATABASE_UNAVAILABLE in the envelope, the tool
 * calls' group commit does not hold later writes behind the stuck batch, and the service works
 * again once the database does. @persistence: `npm run test:postgres` runs it in CI.
 */
import { createServer, Socket, type Server } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, startServer, type TestServer } from '../support/server';
import { postgresReachable, postgresUrl, requireService } from '../support/services';

/** A TCP proxy to PostgreSQL whose traffic can be stopped (sockets stay open, no byte moves) and resumed. */
class PausableProxy {
  private server?: Server;
  private pairs: Array<[Socket, Socket]> = [];
  private held: Socket[] = [];
  paused = false;
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      client.on('error', () => undefined);
      if (this.paused) {
        client.pause();
        this.held.push(client);
      } else this.connect(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  private connect(client: Socket): void {
    const upstream = new Socket();
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.connect(this.targetPort, this.host);
    client.pipe(upstream);
    upstream.pipe(client);
    this.pairs.push([client, upstream]);
    client.resume();
  }

  pause(): void {
    this.paused = true;
    for (const [a, b] of this.pairs) {
      a.unpipe();
      b.unpipe();
      a.pause();
      b.pause();
    }
  }

  resume(): void {
    this.paused = false;
    for (const [a, b] of this.pairs) {
      if (a.destroyed || b.destroyed) continue;
      a.pipe(b);
      b.pipe(a);
    }
    for (const client of this.held.splice(0)) if (!client.destroyed) this.connect(client);
  }

  async stop(): Promise<void> {
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    for (const c of this.held) c.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

let skip: string | undefined;
let server: TestServer;
let proxy: PausableProxy;
let databaseUrl: string;
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  skip = await requireService(`PostgreSQL (${postgresUrl()})`, postgresReachable);
  if (skip) return;
  const created = await createPostgresDatabase(postgresUrl());
  databaseUrl = created.url;
  dropDatabase = created.drop;
  const target = new URL(databaseUrl);
  proxy = new PausableProxy(target.hostname, Number(target.port || 5432));
  await proxy.start();
  const proxied = new URL(databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  server = await startServer({
    databaseUrl: proxied.toString(),
    env: { DATABASE_STATEMENT_TIMEOUT_MS: '800', DATABASE_CONNECT_TIMEOUT_MS: '800', STRATEGIST_PROVIDER: 'mock' },
  });
});
afterAll(async () => {
  proxy?.resume();
  await server?.stop();
  await proxy?.stop();
  await dropDatabase?.();
});

/**
 * A request with a deadline far beyond the configured bounds (0.8 s statement, 0.8 s connect):
 * before the bounds, a stuck database held the request until the database came back.
 */
async function send(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  server.assertNoSecrets(text, `${method} ${path}`);
  return { status: res.status, json: JSON.parse(text) as any, text };
}

function expectUnavailable(res: { status: number; json: any; text: string }) {
  expect(res.status, res.text).toBe(503);
  expect(res.json.error).toMatchObject({ code: 'DATABASE_UNAVAILABLE', issues: [{ code: 'DATABASE_UNAVAILABLE' }] });
  // Nothing of the driver's words (which can name the database, its user or its host).
  expect(res.text).not.toMatch(/postgres|statement|timeout exceeded|127\.0\.0\.1/i);
}

const coilOf = async () => (await send('POST', '/api/tools/generate-coil', { prompt: 'AI chips and data centres' })).json.coil;

describe('@persistence a PostgreSQL that does not answer is a 503, never a stall', () => {
  it('a table locked by another connection: tool-call writes (group commit) and Prisma writes answer 503; after the lock, writes are stored', async (ctx) => {
    if (skip) return ctx.skip();
    const coil = await coilOf();
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE "Receipt", "AuthNonce" IN ACCESS EXCLUSIVE MODE');
      // Several concurrent tool calls: one batch waits on the lock; the writes queued behind
      // it are answered too, not held forever.
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) => send('POST', '/api/tools/receipt', { coil: { ...coil, name: `${coil.name} ${i}` } })),
      );
      for (const res of answers) expectUnavailable(res);
      expectUnavailable(await send('GET', '/api/auth/nonce'));
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    const after = await send('POST', '/api/tools/receipt', { coil });
    expect(after.status, after.text).toBe(200);
    const stored = await send('GET', `/api/coil/provenance/${after.json.receipt.manifestHash}`);
    expect(stored.status, stored.text).toBe(200);
    expect((await send('GET', '/api/auth/nonce')).status).toBe(200);
  });

  it('a connection whose bytes stop flowing (nothing comes back): 503 from the client-side bounds; the service recovers when it flows again', async (ctx) => {
    if (skip) return ctx.skip();
    const coil = await coilOf();
    proxy.pause();
    try {
      const answers = await Promise.all([
        send('POST', '/api/tools/receipt', { coil }),
        send('POST', '/api/tools/receipt', { coil: { ...coil, name: `${coil.name} again` } }),
        send('GET', '/api/auth/nonce'),
      ]);
      for (const res of answers) expectUnavailable(res);
    } finally {
      proxy.resume();
    }
    // The pools replace what they gave up on; the next calls are answered normally.
    const after = await send('POST', '/api/tools/receipt', { coil });
    expect(after.status, after.text).toBe(200);
    expect((await send('GET', '/api/auth/nonce')).status).toBe(200);
  });
});
