/**
 * DNS-rebinding protection of `POST /mcp` (MCP Streamable HTTP transport, security warning;
 * the conformance suite's `dns-rebinding-protection`): a page on a foreign site whose name
 * was re-pointed at this machine must not reach the tools. Its browser sends that site's
 * `Origin` (every browser sends `Origin` on a POST) and `Host`, so a request whose `Origin` is
 * present is answered only when its `Origin` and its `Host` both name an allowed origin:
 * this service's `ORIGIN`, `localhost`, `127.0.0.1` or `[::1]` at the service's `PORT`, or
 * one listed in `MCP_ALLOWED_ORIGINS`.
 *
 * A request without `Origin` comes from no web page (an agent, the SDK's client, curl) and is
 * answered as before, whatever its `Host`: such clients reach the service by any name or
 * address (a LAN address, a proxy's upstream name) that ORIGIN need not list, and no browser
 * can be made to send one.
 *
 * Written here rather than with the SDK transport's own `allowedOrigins`/`allowedHosts`
 * options: those compare raw header strings, apply to every request (Origin or not), and
 * answer in the SDK's words after the front has read and counted the body; this check runs
 * before the body is read and refuses in the service's envelope with the invariants.
 */
import { config } from '../config';
import { SvcError } from '../errors';
import type { HeaderReader } from '../trpc/context';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

let allowed: { key: string; origins: ReadonlySet<string>; hosts: ReadonlySet<string> } | undefined;

/** The allowed origins and the `Host` values they name, computed once per configuration. */
function allowedOrigins(): { origins: ReadonlySet<string>; hosts: ReadonlySet<string> } {
  const { origin, port, mcpAllowedOrigins } = config();
  const key = `${origin} ${port} ${mcpAllowedOrigins.join(',')}`;
  if (allowed?.key === key) return allowed;
  const urls = [origin, ...LOOPBACK_NAMES.map((name) => `http://${name}:${port}`), ...mcpAllowedOrigins].map((o) => new URL(o));
  allowed = { key, origins: new Set(urls.map((u) => u.origin)), hosts: new Set(urls.map((u) => u.host)) };
  return allowed;
}

/** A header value as a URL's origin, or undefined when it is none (`null`, garbage). */
function originOf(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** A `Host` header as a URL's host (lower case, default port dropped), or undefined. */
function hostOf(value: string | null): string | undefined {
  if (!value || /[/?#@\s]/.test(value)) return undefined;
  try {
    return new URL(`http://${value}`).host;
  } catch {
    return undefined;
  }
}

const refused = (what: 'Origin' | 'Host') =>
  new SvcError(
    'ORIGIN_MISMATCH',
    `${what} not allowed: POST /mcp answers pages of this service's ORIGIN, localhost at its port, and MCP_ALLOWED_ORIGINS`,
    {
      issues: [
        {
          code: 'ORIGIN_MISMATCH',
          message: `the ${what} header names none of the allowed origins (DNS-rebinding protection)`,
          path: `headers.${what.toLowerCase()}`,
        },
      ],
    },
  );

/** Throws 403 ORIGIN_MISMATCH for a request from a page whose `Origin` or `Host` is not allowed. */
export function checkMcpOrigin(headers: HeaderReader): void {
  const originHeader = headers.get('origin');
  if (originHeader === null) return;
  const { origins, hosts } = allowedOrigins();
  const origin = originOf(originHeader);
  if (origin === undefined || !origins.has(origin)) throw refused('Origin');
  const host = hostOf(headers.get('host'));
  if (host === undefined || !hosts.has(host)) throw refused('Host');
}
