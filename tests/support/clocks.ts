/**
 * Fixed instants of the two clocks for tests of pure functions (src/lib/server/clock.ts). The
 * service makes a ServerTime only by reading its clock or a row it wrote; a test of a check
 * names the instant it runs at, which is what these casts are for.
 */
import type { AnswerTime, ServerTime } from '../../src/lib/server/clock';

export function serverTimeAt(at: string | number | Date): ServerTime {
  return new Date(at) as ServerTime;
}

export function answerTimeAt(at: string | number | Date): AnswerTime {
  return new Date(at) as AnswerTime;
}
