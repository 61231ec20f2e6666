import { rest } from '../../init';
import type { SvcMeta } from '../../meta';
import { type FreeAnalysisRoute } from '../../../x402/catalogue';

export function freeRouteMeta(analysis: { inputErrorCode: string; free: FreeAnalysisRoute }): SvcMeta {
  const { path, tool, summary } = analysis.free;
  return { family: 'vaults', tool, inputErrorCode: analysis.inputErrorCode, openapi: rest('POST', path, summary) };
}
