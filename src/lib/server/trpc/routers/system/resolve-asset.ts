/** POST /api/stocks/registry/resolve: an asset resolved by ticker and/or address (the address decides). */
import { z } from 'zod';
import { SvcError } from '../../../errors';
import { checkCanonical, findAssetByTicker } from '../../../registry';
import { assetResolutionOut } from '../../../registry/registry.schema';
import { nowIsoField, publicProcedure, rest } from '../../init';

const resolveInput = z
  .object({
    ticker: z.string().min(1).max(32).optional(),
    address: z.string().max(64).optional(),
    nowIso: nowIsoField,
  })
  .refine((v) => v.ticker !== undefined || v.address !== undefined, { message: 'give a ticker, an address or both' });

export const resolveAssetProcedure = publicProcedure
  .meta({
    family: 'registry',
    openapi: rest('POST', '/stocks/registry/resolve', 'Resolve an asset by ticker and/or address (the address decides)'),
  })
  .input(resolveInput)
  .output(assetResolutionOut)
  .mutation(({ input }) => {
    if (input.address === undefined) {
      const asset = findAssetByTicker(input.ticker!);
      return asset
        ? { status: 'canonical' as const, asset, message: `${asset.ticker} is canonical at ${asset.address}` }
        : { status: 'unknown_ticker' as const, asset: null, message: 'no canonical asset has this ticker' };
    }
    const check = checkCanonical(input.ticker, input.address);
    switch (check.status) {
      case 'canonical':
        return { status: check.status, asset: check.asset, message: `${check.asset.ticker} is canonical at ${check.asset.address}` };
      case 'ticker_address_mismatch':
        return {
          status: check.status,
          asset: check.asset,
          message: `${check.asset.ticker} is canonical only at ${check.asset.address}; the given address is not it`,
        };
      case 'unknown_address':
        return { status: check.status, asset: null, message: 'no canonical asset lives at this address' };
      default:
        throw new SvcError('INPUT_INVALID', 'The address is not a 20-byte hex address', {
          issues: [{ code: 'ADDRESS_MALFORMED', message: 'expected 0x followed by 40 hex digits', path: 'address' }],
        });
    }
  });
