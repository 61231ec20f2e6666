/**
 * Links to a block explorer of chain 4663, when the deployment names one
 * (`PUBLIC_BROKER_CHAIN_EXPLORER_URL`, the same setting the chain-add request offers a wallet).
 * Without it there is no link: the page shows the hash alone and never invents an explorer.
 */
import { env } from '$env/dynamic/public';

function explorerBase(): string | undefined {
  const base = env.PUBLIC_BROKER_CHAIN_EXPLORER_URL?.trim();
  return base ? base.replace(/\/+$/, '') : undefined;
}

/** `{explorer}/tx/{hash}` (the path Etherscan and Blockscout explorers share), or undefined. */
export function explorerTxUrl(hash: string): string | undefined {
  const base = explorerBase();
  return base ? `${base}/tx/${hash}` : undefined;
}

/** `{explorer}/address/{address}`, or undefined. */
export function explorerAddressUrl(address: string): string | undefined {
  const base = explorerBase();
  return base ? `${base}/address/${address}` : undefined;
}
