/**
 * The typed client package from a client author's side (issue 24, point 1): the package is
 * packed (`npm pack`, which builds the client and its declarations), the tarball is installed
 * into a scratch project in a temp dir, a TypeScript file using
 * `import { createSvcClient } from 'strategy-basket-service/client'` is type-checked with the
 * tsconfig `tsc --init` writes (TypeScript's defaults), and run against the real server.
 * `@ts-expect-error` lines prove the types are precise: an `any` anywhere would make them unused
 * directives, which tsc reports.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rawCoil } from '../support/coils';
import { ROOT, startServer, type TestServer } from '../support/server';

const run = promisify(execFile);
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
let server: TestServer;
const work = mkdtempSync(join(tmpdir(), 'svc-client-package-'));

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

const consumer = (
  url: string,
  coil: unknown,
) => `import { createSvcClient, svcErrorCode, type SvcInputs, type SvcOutputs } from 'strategy-basket-service/client';

const svc = createSvcClient({ url: ${JSON.stringify(url)} });
const batched = createSvcClient({ url: ${JSON.stringify(url)}, batch: true });

const registry: SvcOutputs['system']['registry'] = await svc.system.registry.query();
const tickers: string[] = registry.assets.map((asset) => asset.ticker);

const coil: SvcInputs['tools']['validateCoil']['coil'] = ${JSON.stringify(coil)};
const validated = await svc.tools.validateCoil.mutate({ coil, nowIso: '2026-01-01T00:00:00.000Z' });
const receiptId: string = validated.receipt.receiptId;
const stamped: false = validated.liveOrderSent;

const [health, policy] = await Promise.all([batched.system.health.query(), batched.tools.oraclePolicy.mutate({})]);
const mode: 'planning_only' = health.mode;

let refusal: string | undefined;
try {
  await svc.system.health.query({ nowIso: 'yesterday' });
} catch (error) {
  refusal = svcErrorCode(error);
}

// The types are precise: each line below is a type error, and an unused directive would be one too.
// @ts-expect-error: the input needs a Coil
void (() => svc.tools.validateCoil.mutate({}));
// @ts-expect-error: weights are numbers
void (() => svc.tools.validateCoil.mutate({ coil: { ...coil, assets: [{ ...coil.assets[0]!, weightBps: '4000' }] } }));
// @ts-expect-error: no such procedure
void (() => svc.tools.placeOrder.mutate({}));
// @ts-expect-error: the answer has no such field
void validated.orderId;
// @ts-expect-error: a query is not a mutation
void (() => svc.system.registry.mutate());

console.log(JSON.stringify({ tickers: tickers.length, receiptId, stamped, mode, policyKeys: Object.keys(policy).length, refusal }));
`;

it('packs, installs into a scratch project, type-checks with a default tsconfig and calls the real server', async () => {
  await run('npm', ['pack', '--pack-destination', work], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
  expect(tarball).toMatch(/^strategy-basket-service-.*\.tgz$/);

  const project = join(work, 'scratch');
  await run('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  // The packed manifest has no dependencies (the CLI is one bundled file); a client author installs
  // the client's optional peers beside it, at the versions the package names (README, "Typed client").
  const packed = JSON.parse((await run('tar', ['-xOzf', join(work, tarball), 'package/package.json'], { cwd: work })).stdout);
  expect(packed.dependencies).toBeUndefined();
  const peers = Object.entries(packed.peerDependencies as Record<string, string>).map(([name, range]) => `${name}@${range}`);
  expect(peers.map((p) => p.replace(/@[^@]*$/, '')).sort()).toEqual(['@trpc/client', '@trpc/server', 'viem', 'zod']);
  await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', join(work, tarball), ...peers], {
    cwd: project,
    maxBuffer: 64 * 1024 * 1024,
  });
  await run(process.execPath, [TSC, '--init'], { cwd: project });
  writeFileSync(join(project, 'consumer.ts'), consumer(server.url, rawCoil()));

  const check = await run(process.execPath, [TSC, '-p', project], { cwd: project }).catch((e: { stdout: string }) => e);
  expect(check.stdout).toBe('');

  const { stdout } = await run(process.execPath, [join(project, 'consumer.js')], { cwd: project });
  const result = JSON.parse(stdout);
  expect(result).toMatchObject({ stamped: false, mode: 'planning_only', refusal: 'NOW_ISO_INVALID' });
  expect(result.tickers).toBeGreaterThanOrEqual(15);
  expect(result.receiptId).toMatch(/^hrcpt_[0-9a-f]{32}$/);
  expect(result.policyKeys).toBeGreaterThan(0);
}, 300_000);
