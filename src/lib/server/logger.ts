/**
 * Structured JSON logs (pino). Log lines never carry bodies or query strings, and every
 * line passes through the secret scrub before it is written.
 */
import pino from 'pino';
import { secretValues } from './config';
import { scrubSecrets } from './guards/secret-scrub';

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

/**
 * A failure no code of the service anticipated: logged at error level with its type and stack
 * frames, `where` it happened (request id, path). The message line is left out: it may quote
 * the request.
 */
export function logInternalError(error: unknown, where: Record<string, unknown>): void {
  const frames =
    error instanceof Error
      ? (error.stack ?? '')
          .split('\n')
          .slice(1, 8)
          .map((l) => l.trim())
      : [];
  logger.error({ event: 'internal_error', ...where, name: error instanceof Error ? error.name : typeof error, frames }, 'internal error');
}
