/**
 * PostgreSQL, Redis and Chromium are provided by the CI machine. Under CI=true a suite that
 * needs one must run; elsewhere it may skip with a printed reason when the service is absent.
 */
import { existsSync } from 'node:fs';
import { Socket } from 'node:net';

export const IN_CI = process.env.CI === 'true';

export async function tcpReachable(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host);
  });
}

/**
 * Returns the reason to skip, or undefined to run. Throws under CI: a required service
 * missing in CI is a failure, not a skip.
 */
export async function requireService(name: string, check: () => Promise<boolean> | boolean): Promise<string | undefined> {
  if (await check()) return undefined;
  const reason = `${name} is not available on this machine`;
  if (IN_CI) throw new Error(`${reason}, and CI=true forbids skipping`);
  console.warn(`SKIP: ${reason}`);
  return reason;
}

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const chromiumInstalled = () => existsSync(CHROMIUM_PATH);
/** The PostgreSQL the tests use: TEST_DATABASE_URL, else the machine's loopback server (CI has one). */
export const postgresUrl = () => process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
export const postgresReachable = () => {
  const u = new URL(postgresUrl());
  return tcpReachable(u.hostname, Number(u.port || 5432));
};
export const redisUrl = () => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const redisReachable = () => {
  const u = new URL(redisUrl());
  return tcpReachable(u.hostname, Number(u.port || 6379));
};
