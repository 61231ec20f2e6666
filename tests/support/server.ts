/**
 * Starts the real built server as a child process on a free port with its own database
 * (a temp SQLite file, or a fresh PostgreSQL database when TEST_DATABASE_URL is set) and
 * talks HTTP to it. Every response read through `TestServer` is checked for the server's
 * secret configuration values, and so is every log line when the server stops.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

export const ROOT = resolve(import.meta.dirname, '..', '..');

const SECRET_ENV = [
  'PARTNER_API_KEY',
  'FACILITATOR_API_KEY',
  'BROKER_CHAIN_RPC_URL',
  'DATABASE_URL',
  'REDIS_URL',
  'SVC_SIGNING_KEY',
] as const;

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolvePort(port));
    });
  });
}

/** A unique marker value for a secret, so a leak is unambiguous. */
export function secretMarker(name: string): string {
  return `svc-test-secret-${name}-${Math.random().toString(36).slice(2, 10)}`;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

export interface StartOptions {
  env?: Record<string, string | undefined>;
  /** Reuse an existing database URL (e.g. to restart on the same data). */
  databaseUrl?: string;
  /** Use PostgreSQL when TEST_DATABASE_URL is set (persistence suites); default true. */
  allowPostgres?: boolean;
}

export class TestServer {
  readonly logs: string[] = [];
  private exited = false;
  constructor(
    readonly url: string,
    readonly port: number,
    readonly env: Record<string, string>,
    private readonly child: ChildProcess,
    private cleanup: () => Promise<void>,
  ) {
    child.on('exit', () => {
      this.exited = true;
    });
  }

  get databaseUrl(): string {
    return this.env.DATABASE_URL!;
  }

  /** The server process id (to read its memory from /proc in soak runs). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The secret configuration values this server was started with. */
  secrets(): string[] {
    return SECRET_ENV.map((k) => this.env[k]).filter((v): v is string => Boolean(v && v.length >= 8));
  }

  assertNoSecrets(text: string, where: string): void {
    for (const secret of this.secrets()) {
      if (text.includes(secret)) throw new Error(`secret configuration value leaked in ${where}`);
    }
  }

  async request<T = any>(
    method: string,
    path: string,
    init: { body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    let body: string | Uint8Array | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.url + path, { method, headers, body: body as BodyInit | undefined, redirect: 'manual' });
    const text = await res.text();
    const headerText = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
    this.assertNoSecrets(text + '\n' + headerText, `${method} ${path}`);
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers });
  }

  post<T = any>(path: string, body: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, { body, headers });
  }

  /** Sends SIGTERM; resolves to whether the process ended on its own within `timeoutMs`. */
  async terminate(timeoutMs: number): Promise<boolean> {
    if (this.exited) return true;
    const done = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await Promise.race([done, new Promise((r) => setTimeout(r, timeoutMs))]);
    return this.exited;
  }

  /** Stops the server; `keepData` leaves its database for a restart on the same data. */
  async stop(opts: { keepData?: boolean } = {}): Promise<void> {
    if (!this.exited) {
      const done = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      await Promise.race([done, new Promise((r) => setTimeout(r, 3000))]);
      if (!this.exited) this.child.kill('SIGKILL');
    }
    this.assertNoSecrets(this.logs.join('\n'), 'server logs');
    if (!opts.keepData) await this.cleanup();
    else this.pendingCleanup = this.cleanup;
  }

  private pendingCleanup?: () => Promise<void>;

  /** Hands this server's data over to a successor started on the same database. */
  adoptDataOf(previous: TestServer): void {
    const inherited = previous.pendingCleanup;
    if (!inherited) return;
    const own = this.cleanup;
    this.cleanup = async () => {
      await own();
      await inherited();
    };
  }
}

/** A fresh, empty PostgreSQL database on the server of `baseUrl`, and how to drop it. */
export async function createPostgresDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `svc_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
}

/** Starts one server; resolves when it answers /api/health. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'));
  let databaseUrl = options.databaseUrl;
  let dropDatabase: (() => Promise<void>) | undefined;
  if (!databaseUrl) {
    const pgBase = process.env.TEST_DATABASE_URL;
    if (pgBase && options.allowPostgres !== false) {
      const created = await createPostgresDatabase(pgBase);
      databaseUrl = created.url;
      dropDatabase = created.drop;
    } else {
      databaseUrl = `file:${join(dir, 'svc.db')}`;
    }
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    PORT: String(port),
    HOST: '127.0.0.1',
    ORIGIN: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '100000',
    LOG_LEVEL: 'info',
    ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
  };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), '--no-build'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const server = new TestServer(`http://127.0.0.1:${port}`, port, env, child, async () => {
    await dropDatabase?.();
    if (!options.databaseUrl) rmSync(dir, { recursive: true, force: true });
  });
  const collect = (chunk: Buffer) => server.logs.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start-up:\n${server.logs.join('\n')}`);
    try {
      const res = await fetch(`${server.url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`server did not start in time:\n${server.logs.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return server;
}
