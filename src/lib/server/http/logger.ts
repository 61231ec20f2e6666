/**
 * Structured JSON logs (pino). Log lines never carry bodies or query strings, and every
 * line passes through the secret scrub before it is written.
 */
import pino from 'pino';
import { secretValues } from '../config';
import { scrubSecrets } from '../guards/secret-scrub';

let secrets: readonly string[] | undefined;

const options: pino.LoggerOptions = {
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: 'strategy-basket-service' },
  timestamp: pino.stdTimeFunctions.isoTime,
  hooks: {
    streamWrite(line: string) {
      secrets ??= secretValues();
      return scrubSecrets(line, secrets);
    },
  },
};

// The stdio MCP server's stdout is its protocol channel (src/mcp/logs-to-stderr.ts).
export const logger = process.env.SVC_LOG_STDERR === '1' ? pino(options, pino.destination(2)) : pino(options);
