/** The meta of every autonomy procedure, and the dependencies of its broker-path functions. */
import type { PathDeps } from '../../../autonomy/broker-path';
import type { ErrorIssue } from '../../../errors';
import type { McpToolName } from '../../../registry/agents';
import type { RequestContext } from '../../context';
import { rest } from '../../init';
import { toolInputErrorCode } from '../../procedure-kit/input-error-codes';

// COIL_SHAPE, COIL_INVALID, CAPSULE_COMPILE, RECEIPT_SHAPE and SHARE_CARD_REJECTED are the tools'.

/** A broken Coil is COIL_SHAPE, a broken activity list ACTIVITY_SHAPE, as for the tools. */
function autonomyInputErrorCode(path: string, issue?: ErrorIssue): string {
  if (path === 'activity' || path.startsWith('activity.')) return issue?.code === 'SYMBOL_SPACE_CONFUSION' ? issue.code : 'ACTIVITY_SHAPE';
  return toolInputErrorCode(path, issue);
}

export function meta(tool: McpToolName, path: `/${string}`, summary: string) {
  return {
    family: 'autonomy' as const,
    tool,
    inputErrorCode: autonomyInputErrorCode,
    openapi: rest('POST', path, summary),
  };
}

export function pathDeps(ctx: RequestContext): PathDeps {
  return { now: ctx.answerTime, serverTime: ctx.serverTime, stockNotionalCapUsd: ctx.config.partner.stockTradeMaxNotionalUsd };
}
