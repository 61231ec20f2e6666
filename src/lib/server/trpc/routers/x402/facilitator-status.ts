import { z } from 'zod';
import { readServerClock } from '../../../clock';
import { nowIsoField, publicProcedure, rest, stampedOutput } from '../../init';
import {
  facilitatorLaneConstants,
  facilitatorLaneConstantsSchema,
  facilitatorReachability,
  reachabilitySchema,
} from '../../../x402/directory';
import { facilitatorClient } from '../../../x402/facilitator-client';
import { chainBlocks, chainBlockFields, facilitatorLaneState, facilitatorSettingsFrom, facilitatorStateSchema } from '../../../x402/lanes';
import { laneOf } from './paid-flow';

export const facilitatorStatusProcedure = publicProcedure
  .meta({
    family: 'x402',
    openapi: rest('GET', '/x402/facilitator/status', 'Facilitator configuration booleans, lane constants and a live reachability check'),
  })
  .input(z.object({ nowIso: nowIsoField }).optional())
  .output(
    stampedOutput({
      configuration: z.object({
        enabled: z.boolean(),
        apiKeyConfigured: z.boolean(),
        urlConfigured: z.boolean(),
        payToConfigured: z.boolean(),
        facilitatorAddressConfigured: z.boolean(),
        networkConfigured: z.boolean(),
        chainIdConfigured: z.boolean(),
        usdgAddressConfigured: z.boolean(),
      }),
      state: facilitatorStateSchema,
      blockers: z.array(z.string()),
      payTo: z.string().nullable(),
      constants: facilitatorLaneConstantsSchema,
      reachability: reachabilitySchema,
      checkedAt: z
        .string()
        .nullable()
        .describe(
          "the server's clock when the facilitator answered (or failed to); null when it was not contacted. A caller's nowIso never sets it",
        ),
      ...chainBlockFields,
    }),
  )
  .query(async ({ ctx }) => {
    const cfg = ctx.config.facilitator;
    const settings = facilitatorSettingsFrom(cfg);
    const state = facilitatorLaneState(settings);
    const lane = laneOf(ctx.config);
    const reachability = await facilitatorReachability(
      settings,
      // Asked only when the key is set and the URL usable (checked inside), so both are present then.
      facilitatorClient({ url: cfg.url ?? '', apiKey: cfg.apiKey ?? '', timeoutMs: cfg.timeoutMs }),
    );
    const checkFinishedAt = readServerClock();
    return {
      configuration: {
        enabled: cfg.enabled,
        apiKeyConfigured: Boolean(cfg.apiKey),
        urlConfigured: Boolean(cfg.url),
        payToConfigured: Boolean(cfg.payToAddress),
        facilitatorAddressConfigured: Boolean(cfg.address),
        networkConfigured: Boolean(cfg.network),
        chainIdConfigured: Boolean(cfg.chainId),
        usdgAddressConfigured: Boolean(cfg.usdgAddress),
      },
      state: state.state,
      blockers: state.blockers,
      payTo: state.payTo,
      constants: facilitatorLaneConstants(),
      reachability,
      // The time of a check is the server's, never the caller's answer time.
      checkedAt: reachability.checked ? checkFinishedAt.toISOString() : null,
      ...chainBlocks(lane),
    };
  });
