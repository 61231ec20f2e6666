/**
 * Browser wallets: EIP-1193 providers, discovered through EIP-6963 (every installed wallet
 * announces itself) with the older single `window.ethereum` injection as a fallback.
 */

export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | Record<string, unknown> }): Promise<unknown>;
}

export interface WalletInfo {
  uuid: string;
  name: string;
  icon: string;
  rdns: string;
}

export interface DiscoveredWallet {
  info: WalletInfo;
  provider: Eip1193Provider;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

function isProvider(value: unknown): value is Eip1193Provider {
  return typeof (value as Eip1193Provider | undefined)?.request === 'function';
}

const LEGACY_INFO: WalletInfo = { uuid: 'window.ethereum', name: 'Browser wallet', icon: '', rdns: '' };

/**
 * Listens for wallets and reports the current list on every change. Returns the function
 * that stops listening.
 */
export function discoverWallets(onChange: (wallets: DiscoveredWallet[]) => void): () => void {
  const announced = new Map<string, DiscoveredWallet>();

  const report = () => {
    const list = [...announced.values()];
    const legacy = window.ethereum;
    // A wallet that announces itself usually also sets window.ethereum: list it once.
    if (isProvider(legacy) && !list.some((w) => w.provider === legacy)) list.push({ info: LEGACY_INFO, provider: legacy });
    onChange(list);
  };

  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent<DiscoveredWallet>).detail;
    if (!detail || !isProvider(detail.provider) || typeof detail.info?.uuid !== 'string') return;
    announced.set(detail.info.uuid, { info: detail.info, provider: detail.provider });
    report();
  };

  window.addEventListener('eip6963:announceProvider', onAnnounce);
  window.dispatchEvent(new Event('eip6963:requestProvider'));
  report();
  return () => window.removeEventListener('eip6963:announceProvider', onAnnounce);
}

/** EIP-1193 error 4001: the user declined in the wallet. */
export function isUserRejection(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 4001;
}
