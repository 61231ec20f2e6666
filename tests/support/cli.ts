/**
 * The offline CLI (build-cli/svc.mjs, built with the app) run as a process, the way a user runs
 * it: arguments, files in a temp directory, stdout, stderr and the exit code. stdout is a pipe,
 * never a terminal, so the CLI must print no colour.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './server';

export const CLI = join(ROOT, 'build-cli', 'svc.mjs');

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
  /** The --json envelope, when the run printed one. */
  json: any;
}

/**
 * Runs the CLI and resolves when it exits. Asynchronous on purpose: a synchronous spawn blocks
 * the test's event loop, and a kept-alive HTTP socket the server closes meanwhile would then be
 * reused by the next request ("other side closed").
 */
export function runCli(args: string[], options: { cli?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [options.cli ?? CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 30_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ status: status ?? -1, stdout, stderr, json });
    });
  });
}

/** A temp directory to write a run's input files into; `file(name, value)` writes JSON and returns the path. */
export function cliFiles(): { dir: string; file: (name: string, value: unknown) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  return {
    dir,
    file(name, value) {
      const path = join(dir, name);
      writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
      return path;
    },
  };
}
