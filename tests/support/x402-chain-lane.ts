/**
 * The facilitator lane on the local chain 4663 for API tests: a local chain, the fake
 * facilitator settling on it from account 9 (so balances really move), and the server
 * configured to take payment to account 3 and to read the chain.
 */
import { getAddress, type Address } from 'viem';
import { USDG } from '../../src/lib/server/registry';
import { startLocalChain, type LocalChain } from './chain/local-chain';
import { FakeFacilitator } from './fake-facilitator';
import { secretMarker, startServer, type TestServer } from './server';

export interface ChainPaymentLane {
  chain: LocalChain;
  facilitator: FakeFacilitator;
  server: TestServer;
  payTo: Address;
  /** The payer's or payee's USDG balance on the chain. */
  usdgBalance(who: Address): Promise<bigint>;
  stop(): Promise<void>;
}

export async function startChainPaymentLane(opts: {
  facilitatorTimeoutMs: number;
  /** Runs on the chain before the server starts (e.g. placing a vault). */
  prepare?: (chain: LocalChain) => Promise<void>;
}): Promise<ChainPaymentLane> {
  const apiKey = secretMarker('facilitator');
  const chain = await startLocalChain();
  await opts.prepare?.(chain);
  const payTo = getAddress(chain.accounts[3]!.address);
  const facilitator = await new FakeFacilitator({ apiKey, orgPayTo: payTo, chain, signerIndex: 9 }).start();
  const server = await startServer({
    env: {
      BROKER_CHAIN_RPC_URL: chain.rpcUrl,
      FACILITATOR_ENABLED: 'true',
      FACILITATOR_API_KEY: apiKey,
      FACILITATOR_URL: facilitator.url,
      FACILITATOR_PAYTO_ADDRESS: payTo,
      FACILITATOR_ADDRESS: facilitator.signerAddress()!,
      FACILITATOR_TIMEOUT_MS: String(opts.facilitatorTimeoutMs),
    },
  });
  return {
    chain,
    facilitator,
    server,
    payTo,
    usdgBalance: (who) => chain.read<bigint>(USDG.address as Address, chain.artifact('TestUSDG').abi, 'balanceOf', [who]),
    async stop() {
      await server.stop();
      await facilitator.stop();
      await chain.stop();
    },
  };
}
