/**
 * Compiles the project's own test contracts (tests/support/chain/contracts/*.sol) with
 * solc-js, the compiler shipped in the `solc` npm package: nothing is downloaded. The
 * result is cached in the temp directory, keyed by the sources' hash.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Abi, Hex } from 'viem';

export const CONTRACTS_DIR = resolve(import.meta.dirname, 'contracts');

export interface Artifact {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
}

let memo: Record<string, Artifact> | undefined;

export async function compileContracts(): Promise<Record<string, Artifact>> {
  if (memo) return memo;
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(CONTRACTS_DIR)
    .filter((f) => f.endsWith('.sol'))
    .sort()) {
    sources[file] = { content: readFileSync(join(CONTRACTS_DIR, file), 'utf8') };
  }
  const hash = createHash('sha256').update(JSON.stringify(sources)).digest('hex').slice(0, 16);
  const cacheFile = join(tmpdir(), `svc-solc-${hash}.json`);
  if (existsSync(cacheFile)) {
    memo = JSON.parse(readFileSync(cacheFile, 'utf8'));
    return memo!;
  }
  const { default: solc } = await import('solc');
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  };
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), {
      import: (path: string) =>
        existsSync(join(CONTRACTS_DIR, path))
          ? { contents: readFileSync(join(CONTRACTS_DIR, path), 'utf8') }
          : { error: `not found: ${path}` },
    }),
  );
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length) throw new Error(`solc: ${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n')}`);
  const artifacts: Record<string, Artifact> = {};
  for (const file of Object.keys(output.contracts)) {
    for (const [name, c] of Object.entries<any>(output.contracts[file])) {
      artifacts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
    }
  }
  writeFileSync(cacheFile, JSON.stringify(artifacts));
  memo = artifacts;
  return artifacts;
}
