/**
 * A scripted ChainReader for unit tests of the vault domain: chain id 4663 by default, and
 * every read that the test does not script fails loudly.
 */
import { readerFailingWith, type ChainReader } from '../../src/lib/server/vaults/chain';

export function fakeReader(overrides: Partial<ChainReader>): ChainReader {
  const fail = async (): Promise<never> => {
    throw new Error('not scripted');
  };
  return { ...readerFailingWith(fail), chainId: async () => 4663, ...overrides };
}

/** An error shaped like viem's, for classification (only the name chain matters). */
export function viemError(name: string, cause?: unknown): Error {
  return Object.assign(new Error(`${name}: request to http://127.0.0.1:1/secret-rpc-path failed`), { name, cause });
}
