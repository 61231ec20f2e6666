/** The one chain-4663 client: built from the configuration, one timeout policy for every read, never a retry. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerChainClient, DEFAULT_CHAIN_TIMEOUT_MS } from '../../src/lib/server/chain-client';
import { loadConfig } from '../../src/lib/server/config';
import { readTransactionProof } from '../../src/lib/server/stocks/chain-proof';
import { probeChain } from '../../src/lib/server/system/readiness';
import { classifyChainError, createRpcChainReader } from '../../src/lib/server/vaults/chain';

/** An RPC that accepts the request and never answers, counting the requests it gets. */
let hanging: Server;
let url = '';
let requests = 0;

beforeAll(async () => {
  hanging = createServer(() => {
    requests++;
  });
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/secret-path`;
});
afterAll(async () => {
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
});

describe('BROKER_CHAIN_TIMEOUT_MS', () => {
  it('defaults to one value for every chain read and rejects a value that is not a positive integer', () => {
    expect(loadConfig({}).brokerChainTimeoutMs).toBe(DEFAULT_CHAIN_TIMEOUT_MS);
    expect(loadConfig({ BROKER_CHAIN_TIMEOUT_MS: '250' }).brokerChainTimeoutMs).toBe(250);
    for (const bad of ['0', '-1', '1.5', 'soon']) expect(() => loadConfig({ BROKER_CHAIN_TIMEOUT_MS: bad }), bad).toThrow();
  });
});

describe('the chain client', () => {
  it('is null without an RPC, and one client per RPC and timeout', () => {
    expect(brokerChainClient({ brokerChainTimeoutMs: 100 })).toBeNull();
    expect(brokerChainClient({ brokerChainRpcUrl: url, brokerChainTimeoutMs: 100 })).toBe(
      brokerChainClient({ brokerChainRpcUrl: url, brokerChainTimeoutMs: 100 }),
    );
    expect(brokerChainClient({ brokerChainRpcUrl: url, brokerChainTimeoutMs: 100 })).not.toBe(
      brokerChainClient({ brokerChainRpcUrl: url, brokerChainTimeoutMs: 101 }),
    );
  });

  it('gives up on a silent RPC after the configured timeout, once, in every caller, and never quotes the URL', async () => {
    const client = brokerChainClient({ brokerChainRpcUrl: url, brokerChainTimeoutMs: 800 })!;
    const before = requests;

    expect(await probeChain(client)).toEqual({ state: 'unreachable', expectedChainId: 4663 });

    const reader = createRpcChainReader(client);
    const failure = await reader.chainId().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(classifyChainError(failure)).toBe('rpc_timeout');
    expect(String((failure as Error).message)).not.toContain('secret-path');

    const proof = await readTransactionProof(client, `0x${'ab'.repeat(32)}`);
    expect(proof).toMatchObject({ proof: { kind: 'unverified', reason: 'CHAIN_RPC_UNREACHABLE' }, chainIdVerified: false });
    expect(JSON.stringify(proof)).not.toContain('secret-path');

    // Three reads, three requests: no retry stretched any of them. (A request the client gave
    // up on may still be arriving, so wait for the count to settle before reading it.)
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests - before).toBe(3);
  });
});
