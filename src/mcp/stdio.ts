/**
 * `npm run mcp`: the MCP server over stdio (interface 4.9). Stdout carries protocol messages
 * only; logs go to stderr. Pending migrations are applied first, as `npm start` does.
 */
import './logs-to-stderr';
import { config } from '$lib/server/config';
import { applyMigrations } from '$lib/server/db/migrate';
import { logger } from '$lib/server/logger';
import { readServerClock } from '$lib/server/clock';
import { readySigner } from '$lib/server/signing-key';
import { connectGuarded, createMcpServer } from './server';
import { framedStdioTransport } from './stdio-framing';

const report = await applyMigrations(config().databaseUrl, { connectTimeoutMs: config().databaseTimeouts.connectMs });
logger.info(
  { event: 'migrations', provider: report.provider, applied: report.applied, alreadyApplied: report.alreadyApplied },
  'database ready',
);

await readySigner(config(), readServerClock());

const server = createMcpServer({ transport: 'stdio' });
const transport = framedStdioTransport();
// The host ends the session by closing our stdin; the database pools would otherwise keep
// the process alive.
process.stdin.once('end', () => void server.close().finally(() => process.exit(0)));
await connectGuarded(server, transport);
logger.info({ event: 'mcp_ready', transport: 'stdio' }, 'MCP server ready on stdio');
