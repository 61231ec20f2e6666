/**
 * An EIP-1193 browser wallet for Chromium tests: a provider object injected into the page
 * before any script runs, announced through EIP-6963 and/or set as `window.ethereum`,
 * whose `personal_sign` and `eth_signTypedData_v4` are answered by a viem local account in the
 * test process (the key never enters the page). It starts on a chain of the test's choosing and answers
 * `wallet_switchEthereumChain` / `wallet_addEthereumChain` as a real wallet would (switch,
 * refuse, or not know the chain until it is added). Every request is recorded, in order.
 */
import type { Page } from 'playwright-core';
import type { Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';

export type SwitchBehaviour =
  /** Switches when asked. */
  | 'accept'
  /** The user declines the switch (EIP-1193 error 4001). */
  | 'refuse'
  /** Does not know the chain (error 4902) until wallet_addEthereumChain adds it; adding switches. */
  | 'unknown_chain'
  /** Answers the switch request without error but stays on its chain. */
  | 'ignore';

export interface InjectedWalletOptions {
  /** Announce through EIP-6963 (default true). */
  announce?: boolean;
  /** Also set window.ethereum (default false). */
  legacy?: boolean;
  /** Chain id the wallet starts on (default 4663). */
  chainId?: number;
  /** Decline every signature request (EIP-1193 error 4001). */
  decline?: boolean;
  /** How the wallet answers a chain switch (default 'accept'). */
  onSwitch?: SwitchBehaviour;
  /** Answers eth_sendTransaction in the test process (else the wallet refuses with 4200). */
  sendTransaction?: (tx: { from: string; to: string; data: string; chainId?: string }) => Promise<Hex>;
}

export interface InjectedWallet {
  /** Texts of the messages signed. */
  signed: string[];
  /** The EIP-712 typed data signed (eth_signTypedData_v4), parsed. */
  signedTypedData: { domain: Record<string, unknown>; primaryType: string; message: Record<string, unknown> }[];
  /** Every request the page made: method, its params, and the chain the wallet was on. */
  requests: { method: string; params: unknown; chainId: number }[];
}

export async function injectWallet(page: Page, account: PrivateKeyAccount, options: InjectedWalletOptions = {}): Promise<InjectedWallet> {
  const wallet: InjectedWallet = { signed: [], signedTypedData: [], requests: [] };
  await page.exposeFunction('__svcTestWalletSign', async (data: Hex) => {
    const text = Buffer.from(data.slice(2), 'hex').toString('utf8');
    wallet.signed.push(text);
    return account.signMessage({ message: { raw: data } });
  });
  await page.exposeFunction('__svcTestWalletSignTyped', async (json: string) => {
    const typed = JSON.parse(json) as { domain: any; types: Record<string, unknown>; primaryType: string; message: any };
    wallet.signedTypedData.push({ domain: typed.domain, primaryType: typed.primaryType, message: typed.message });
    // viem derives the domain type itself: the EIP712Domain entry a wallet receives is not passed on.
    const { EIP712Domain: _domain, ...types } = typed.types;
    return account.signTypedData({ domain: typed.domain, types, primaryType: typed.primaryType, message: typed.message } as never);
  });
  await page.exposeFunction('__svcTestWalletRecord', (method: string, params: unknown, chainId: number) => {
    wallet.requests.push({ method, params, chainId });
  });
  await page.exposeFunction('__svcTestWalletSend', async (tx: { from: string; to: string; data: string; chainId?: string }) => {
    if (!options.sendTransaction) throw Object.assign(new Error('This wallet sends nothing'), { code: 4200 });
    return options.sendTransaction(tx);
  });
  await page.addInitScript(
    ({ address, announce, legacy, startChainId, decline, onSwitch }) => {
      const w = window as unknown as Record<string, any>;
      let chainId = startChainId;
      let known = onSwitch !== 'unknown_chain';
      const fail = (message: string, code: number) => Object.assign(new Error(message), { code });
      const hex = (n: number) => `0x${n.toString(16)}`;
      const provider = {
        async request({ method, params }: { method: string; params?: unknown[] }) {
          await w.__svcTestWalletRecord(method, params ?? null, chainId);
          switch (method) {
            case 'eth_requestAccounts':
            case 'eth_accounts':
              return [address];
            case 'eth_chainId':
              return hex(chainId);
            case 'wallet_switchEthereumChain': {
              const wanted = Number.parseInt(String((params as [{ chainId: string }])[0].chainId), 16);
              if (onSwitch === 'refuse') throw fail('User rejected the request.', 4001);
              if (onSwitch === 'ignore') return null;
              if (!known) throw fail('Unrecognized chain ID. Try adding the chain using wallet_addEthereumChain first.', 4902);
              chainId = wanted;
              return null;
            }
            case 'wallet_addEthereumChain': {
              const [chain] = params as [{ chainId: string; rpcUrls?: string[] }];
              if (!chain?.rpcUrls?.length) throw fail('rpcUrls required', -32602);
              known = true;
              chainId = Number.parseInt(chain.chainId, 16);
              return null;
            }
            case 'personal_sign': {
              const [data, from] = params as [string, string];
              if (decline) throw fail('User rejected the request.', 4001);
              if (String(from).toLowerCase() !== address.toLowerCase()) throw fail('Unknown account', 4100);
              return w.__svcTestWalletSign(data);
            }
            case 'eth_signTypedData_v4': {
              const [from, json] = params as [string, string];
              if (decline) throw fail('User rejected the request.', 4001);
              if (String(from).toLowerCase() !== address.toLowerCase()) throw fail('Unknown account', 4100);
              return w.__svcTestWalletSignTyped(typeof json === 'string' ? json : JSON.stringify(json));
            }
            case 'eth_sendTransaction': {
              const [tx] = params as [{ from: string; to: string; data: string; chainId?: string }];
              if (tx.chainId !== undefined && Number.parseInt(tx.chainId, 16) !== chainId)
                throw fail('The transaction names another chain than the wallet is on', -32000);
              return w.__svcTestWalletSend(tx);
            }
            default:
              throw fail(`Unsupported method ${method}`, 4200);
          }
        },
      };
      if (legacy) w.ethereum = provider;
      if (announce) {
        const detail = Object.freeze({
          info: {
            uuid: '7f3c1e2a-0000-4000-8000-000000000001',
            name: 'Test Wallet',
            icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg"/%3E',
            rdns: 'test.svc.wallet',
          },
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
      startChainId: options.chainId ?? 4663,
      decline: options.decline ?? false,
      onSwitch: options.onSwitch ?? 'accept',
    },
  );
  return wallet;
}
