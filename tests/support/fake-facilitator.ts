/**
 * A stand-in for the external x402 facilitator (interface 4.8; coinbase/x402 specification v2,
 * section 7): `POST /settle`, `POST /verify` and `GET /supported`, each behind a bearer key,
 * as a real HTTP server on 127.0.0.1. It records every request so tests can prove what was
 * (and was not) sent, and it misbehaves on demand: `success: false` with HTTP 200, 5xx, a
 * hang (the caller's timeout must fire), a dropped connection, an unreadable answer, a
 * success that reports a different recipient or writes the amount another way (a JSON number,
 * `"10000.0"`), a success answered late, or a settlement that happens and whose answer is then
 * lost (it hangs or drops the connection after the transfer).
 *
 * Given the local chain, a successful settle calls `transferWithAuthorization` on the test
 * USDG from the facilitator's own account, so balances really move; the answer carries the
 * real transaction hash, or `success: false` when the transaction reverts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { keccak256, toHex, type Address, type Hex } from 'viem';
import { USDG } from '../../src/lib/server/registry';
import type { LocalChain } from './chain/local-chain';

export interface RecordedFacilitatorRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
  json: any;
}

export type SettleBehaviour =
  | { kind: 'refuse'; reason: string; message?: string; status?: number }
  | { kind: 'status'; status: number; body?: string }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'bad_json' }
  | { kind: 'report_pay_to'; payTo: string }
  /** Success, with `amount` written as given (a JSON number, a decimal string, ...). */
  | { kind: 'report_amount'; amount: unknown }
  /** Settles, then answers only after `ms` milliseconds. */
  | { kind: 'delay'; ms: number }
  /** Settles (on the chain when one is given), then loses the answer: hangs, or drops the connection. */
  | { kind: 'settle_then_hang' }
  | { kind: 'settle_then_reset' };

export interface FakeFacilitatorOptions {
  apiKey: string;
  /** The recipient bound to the key's organisation; reported on success and on /supported. */
  orgPayTo: string;
  /** When given, a successful settle really calls transferWithAuthorization on this chain. */
  chain?: LocalChain;
  /** The chain account the facilitator sends from (default 9). */
  signerIndex?: number;
}

export class FakeFacilitator {
  readonly requests: RecordedFacilitatorRequest[] = [];
  url = '';
  private server?: Server;
  private behaviours: SettleBehaviour[] = [];
  private readonly hanging = new Set<ServerResponse>();

  constructor(private readonly options: FakeFacilitatorOptions) {}

  /** The next `count` settle calls behave this way instead of settling. */
  nextSettle(behaviour: SettleBehaviour, count = 1): void {
    for (let i = 0; i < count; i++) this.behaviours.push(behaviour);
  }

  settleCalls(): RecordedFacilitatorRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/settle');
  }

  verifyCalls(): RecordedFacilitatorRequest[] {
    return this.requests.filter((r) => r.path === '/verify');
  }

  signerAddress(): Address | undefined {
    return this.options.chain?.accounts[this.options.signerIndex ?? 9]?.address;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += chunk;
    const path = (req.url ?? '/').split('?')[0]!;
    let json: any;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    this.requests.push({ method: req.method ?? 'GET', path, authorization: req.headers.authorization, body, json });

    if (req.headers.authorization !== `Bearer ${this.options.apiKey}`) {
      return this.send(res, 401, { error: 'invalid or missing API key' });
    }
    if (req.method === 'GET' && path === '/supported') return this.send(res, 200, this.supported());
    if (req.method === 'POST' && path === '/verify') return this.send(res, 200, { isValid: true });
    if (req.method === 'POST' && path === '/settle') return this.settle(res, json);
    return this.send(res, 404, { error: 'no such route' });
  }

  private supported() {
    const signer = this.signerAddress() ?? '0x000000000000000000000000000000000000fac1';
    return {
      kinds: [
        { x402Version: 2, scheme: 'exact', network: 'eip155:4663', extra: { payTo: this.options.orgPayTo } },
        { x402Version: 1, scheme: 'exact', network: 'broker', extra: { payTo: this.options.orgPayTo } },
      ],
      extensions: [],
      signers: { 'eip155:*': [signer] },
    };
  }

  private async settle(res: ServerResponse, json: any): Promise<void> {
    const behaviour = this.behaviours.shift();
    const payload = json?.paymentPayload;
    const requirements = json?.paymentRequirements;
    const auth = payload?.payload?.authorization;
    const network = requirements?.network ?? 'eip155:4663';
    if (!auth || typeof payload?.payload?.signature !== 'string') {
      return this.send(res, 400, { success: false, errorReason: 'invalid_payload', transaction: '', network });
    }
    if (behaviour?.kind === 'hang') {
      this.hanging.add(res);
      return;
    }
    if (behaviour?.kind === 'reset') return void res.socket?.destroy();
    if (behaviour?.kind === 'bad_json') return this.send(res, 200, '{"success": true, "transaction": ');
    if (behaviour?.kind === 'status') return this.send(res, behaviour.status, behaviour.body ?? { error: 'upstream failure' });
    if (behaviour?.kind === 'refuse') {
      return this.send(res, behaviour.status ?? 200, {
        success: false,
        errorReason: behaviour.reason,
        ...(behaviour.message ? { errorMessage: behaviour.message } : {}),
        payer: auth.from,
        transaction: '',
        network,
      });
    }

    let transaction: Hex;
    if (this.options.chain) {
      const chain = this.options.chain;
      const abi = chain.artifact('TestUSDG').abi;
      const args = [
        auth.from,
        auth.to,
        BigInt(auth.value),
        BigInt(auth.validAfter),
        BigInt(auth.validBefore),
        auth.nonce,
        payload.payload.signature,
      ];
      try {
        const receipt = await chain.sendUnchecked(
          USDG.address as Address,
          abi,
          'transferWithAuthorization',
          args,
          this.options.signerIndex ?? 9,
        );
        if (receipt.status !== 'success') {
          return this.send(res, 200, {
            success: false,
            errorReason: 'invalid_transaction_state',
            payer: auth.from,
            transaction: receipt.transactionHash,
            network,
          });
        }
        transaction = receipt.transactionHash;
      } catch (error) {
        return this.send(res, 200, {
          success: false,
          errorReason: 'unexpected_settle_error',
          errorMessage: String((error as Error).message).slice(0, 200),
          payer: auth.from,
          transaction: '',
          network,
        });
      }
    } else {
      transaction = keccak256(toHex(`${auth.from}:${auth.nonce}`));
    }
    if (behaviour?.kind === 'settle_then_hang') {
      this.hanging.add(res);
      return;
    }
    if (behaviour?.kind === 'settle_then_reset') return void res.socket?.destroy();
    if (behaviour?.kind === 'delay') await new Promise((r) => setTimeout(r, behaviour.ms));
    const payTo = behaviour?.kind === 'report_pay_to' ? behaviour.payTo : this.options.orgPayTo;
    const amount = behaviour?.kind === 'report_amount' ? { amount: behaviour.amount } : {};
    return this.send(res, 200, { success: true, payer: auth.from, transaction, network, ...amount, extra: { payTo } });
  }
}
