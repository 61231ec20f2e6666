/**
 * No request ends the process (issue 34 item 3), through the real built server: a built asset
 * that vanished while the server ran (a deploy replacing `build/` under it) answers 404 in the
 * envelope, and a promise rejected with nobody listening is logged once; the server keeps
 * serving after both.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startServer, type TestServer } from '../support/server';

const CHUNKS = join(ROOT, 'build', 'client', '_app', 'immutable', 'chunks');
// A file of this test's own (sirv lists the build's files once, at start-up), so removing it
// takes nothing from any other suite's server.
const NAME = `svc-vanishing-${randomBytes(6).toString('hex')}.js`;
const FILES = [NAME, `${NAME}.br`, `${NAME}.gz`].map((f) => join(CHUNKS, f));
const ASSET = `/_app/immutable/chunks/${NAME}`;

let server: TestServer;

beforeAll(async () => {
  const source = Buffer.from('export const vanishing = true;\n');
  writeFileSync(FILES[0]!, source);
  writeFileSync(FILES[1]!, brotliCompressSync(source));
  writeFileSync(FILES[2]!, gzipSync(source));
  server = await startServer({
    env: { NODE_OPTIONS: `--import=${join(ROOT, 'tests', 'support', 'unawaited-rejection.mjs')}` },
  });
});
afterAll(async () => {
  for (const file of FILES) rmSync(file, { force: true });
  await server?.stop();
});

const linesOf = (event: string) => server.logs.filter((l) => l.includes(`"event":"${event}"`));

async function stillServes(): Promise<void> {
  const health = await server.get('/api/health');
  expect(health.status).toBe(200);
  expect((await server.get('/')).status).toBe(200);
}

describe('a request cannot end the server', () => {
  it('serves the asset while it is there', async () => {
    const res = await server.get(ASSET, { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
  });

  it('answers 404 in the envelope for an asset removed under the running server, logs it once, and keeps serving', async () => {
    for (const file of FILES) rmSync(file);
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await server.get(ASSET, { 'accept-encoding': encoding });
      expect(res.status, encoding).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      // The head sirv had decided for the file (immutable for a year) is not the 404's.
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(res.json.error).toMatchObject({
        code: 'NOT_FOUND',
        message: expect.any(String),
        issues: [expect.objectContaining({ code: 'NOT_FOUND' })],
      });
    }
    await stillServes();
    const logged = linesOf('static_file_missing');
    expect(logged).toHaveLength(3);
    expect(logged.every((l) => l.includes(ASSET) && l.includes('"code":"ENOENT"'))).toBe(true);
  });

  it('logs a promise rejected with nobody listening once, and keeps serving', async () => {
    await server.get('/__test/unawaited-rejection');
    await stillServes();
    expect(linesOf('unhandled_rejection')).toHaveLength(1);
    expect(linesOf('uncaught_exception')).toHaveLength(0);
  });
});
