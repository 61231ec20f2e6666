/** `POST /api/stocks/generate-partner-command`: the command alone, recording nothing. */
import { findAssetByAddress, USDG } from '../registry';
import { buildCommandPack, partnerCommand } from './command-pack';
import { validateStockIntent, type StockIntentInput } from './intent';
import { HARD_FLAGS } from './plan';
import { laneState, type StockLaneConfig } from './lane-config';

/**
 * The partner command of a valid intent (interface 2.9), stateless: no plan is recorded and the
 * partner is never contacted. prepare-partner-command is the recording twin.
 */
export function generateStockCommand(intentInput: StockIntentInput, cfg: StockLaneConfig) {
  const { intent, target } = validateStockIntent(intentInput, { maxNotionalUsd: cfg.partner.stockTradeMaxNotionalUsd });
  return {
    command: partnerCommand(intent),
    commandPack: buildCommandPack(intent, target, findAssetByAddress(USDG.address)!, cfg.partner.apiUrl, laneState(cfg).submitAvailable),
    intent,
    recorded: false as const,
    partnerContacted: false as const,
    ...HARD_FLAGS,
  };
}
