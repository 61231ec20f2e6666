/**
 * An EIP-1193 browser wallet for Chromium tests: a provider object injected into the page
 * before any script runs, announced through EIP-6963 and/or set as `window.ethereum`,
 * whose `personal_sign` is answered by a viem local account in the test process (the key
 * never enters the page).
 */
import type { Page } from 'playwright-core';
import type { Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';

export interface InjectedWalletOptions {
  /** Announce through EIP-6963 (default true). */
  announce?: boolean;
  /** Also set window.ethereum (default false). */
  legacy?: boolean;
  /** Chain id the wallet reports (default 4663). */
  chainId?: number;
  /** Decline every signature request (EIP-1193 error 4001). */
  decline?: boolean;
}

export async function injectWallet(page: Page, account: PrivateKeyAccount, options: InjectedWalletOptions = {}): Promise<{ signed: string[] }> {
  const signed: string[] = [];
  await page.exposeFunction('__svcTestWalletSign', async (data: Hex) => {
    const text = Buffer.from(data.slice(2), 'hex').toString('utf8');
    signed.push(text);
    return account.signMessage({ message: { raw: data } });
  });
  await page.addInitScript(
    ({ address, announce, legacy, chainIdHex, decline }) => {
      const w = window as unknown as Record<string, any>;
      const provider = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          switch (method) {
            case 'eth_requestAccounts':
            case 'eth_accounts':
              return [address];
            case 'eth_chainId':
              return chainIdHex;
            case 'personal_sign': {
              const [data, from] = params as [string, string];
              if (decline) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
              if (String(from).toLowerCase() !== address.toLowerCase()) throw Object.assign(new Error('Unknown account'), { code: 4100 });
              return w.__svcTestWalletSign(data);
            }
            default:
              throw Object.assign(new Error(`Unsupported method ${method}`), { code: 4200 });
          }
        },
      };
      if (legacy) w.ethereum = provider;
      if (announce) {
        const detail = Object.freeze({
          info: { uuid: '7f3c1e2a-0000-4000-8000-000000000001', name: 'Test Wallet', icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E', rdns: 'test.svc.wallet' },
          provider,
        });
        const fire = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
        window.addEventListener('eip6963:requestProvider', fire);
        fire();
      }
    },
    {
      address: account.address,
      announce: options.announce ?? true,
      legacy: options.legacy ?? false,
      chainIdHex: `0x${(options.chainId ?? 4663).toString(16)}`,
      decline: options.decline ?? false,
    },
  );
  return { signed };
}
