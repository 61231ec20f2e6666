/**
 * The offline CLI (build-cli/svc.mjs, built with the app) run as a process, the way a user runs
 * it: arguments, files in a temp directory, stdout, stderr and the exit code. stdout is a pipe,
 * never a terminal, so the CLI must print no colour.
 */
import { spawnSync } from 'node:child_process';
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

export function runCli(args: string[], options: { cli?: string; cwd?: string; env?: Record<string, string> } = {}): CliRun {
  const run = spawnSync(process.execPath, [options.cli ?? CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  let json: unknown;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    json = undefined;
  }
  return { status: run.status ?? -1, stdout: run.stdout, stderr: run.stderr, json };
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
