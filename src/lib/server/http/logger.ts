/**
 * Structured JSON logs (pino). Log lines never carry bodies or query strings, and every
 * line passes through the secret scrub before it is written.
 */
import pino from 'pino';
import { secretValues } from '../config';
import { scrubSecrets } from '../guards/secret-scrub';

let secrets: string[] | undefined;

export const logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { service: 'strategy-basket-service' },
  timestamp: pino.stdTimeFunctions.isoTime,
  hooks: {
    streamWrite(line: string) {
      secrets ??= secretValues();
      return scrubSecrets(line, secrets);
    },
  },
});
