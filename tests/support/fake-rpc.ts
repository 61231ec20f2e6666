/**
 * A tiny JSON-RPC server on 127.0.0.1 that serves another chain (eth_chainId answers the
 * given id, 0x1 by default) and records every method it is asked, so a test can prove the
 * service stopped at eth_chainId and never trusted a transaction receipt from it.
 */
import { createServer, type Server } from 'node:http';
import { secretMarker } from './server';

export class FakeRpc {
  readonly methods: string[] = [];
  url = '';
  private server?: Server;

  constructor(private readonly chainIdHex: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        let calls: Array<{ id?: unknown; method?: string }>;
        try {
          const parsed = JSON.parse(body || '{}');
          calls = Array.isArray(parsed) ? parsed : [parsed];
        } catch {
          res.statusCode = 400;
          return void res.end();
        }
        const answers = calls.map((call) => {
          this.methods.push(String(call.method));
          if (call.method === 'eth_chainId') return { jsonrpc: '2.0', id: call.id ?? 1, result: this.chainIdHex };
          if (call.method === 'eth_getTransactionReceipt') {
            // A receipt that would read as success if the service ever trusted this chain.
            return {
              jsonrpc: '2.0',
              id: call.id ?? 1,
              result: { status: '0x1', blockNumber: '0x10', transactionHash: '0x' + 'ab'.repeat(32), logs: [] },
            };
          }
          return { jsonrpc: '2.0', id: call.id ?? 1, result: null };
        });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(Array.isArray(JSON.parse(body || '{}')) ? answers : answers[0]));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    // The path carries a marker so a leak of the URL in any response or log is detectable.
    this.url = `http://127.0.0.1:${port}/${secretMarker('rpc')}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

export async function startFakeRpc(chainIdHex = '0x1'): Promise<FakeRpc> {
  return new FakeRpc(chainIdHex).start();
}
