/** The answer shapes the autonomy procedures share: the gate, the fuse set, the command pack and the broker MCP instructions. */
import { z } from 'zod';
import { commandPackSchema } from '../../../stocks/command-pack';
import { fuseUnitOut } from '../../../coil/audit.schema';
import { marketSessionOut } from '../../../registry/oracle-policy.schema';
import { autonomyModeField } from './inputs';

export const autonomyFuseOut = z.object({
  kind: z.string(),
  unit: fuseUnitOut,
  limit: z.number().nullable(),
  source: z.string().describe('coil.<field> or fuses[i]'),
});

export const gateOut = z
  .object({
    verdict: z.enum(['ready', 'blocked']),
    mode: autonomyModeField,
    missing: z
      .array(z.string())
      .describe('each unmet requirement: coil_valid, fuse:<kind>, fuse_not_widened:<kind>, live_autonomy_ack, ...'),
    meaning: z.string(),
  })
  .meta({ id: 'AutonomyGate' });

export const partnerCommandOut = z.object({
  brokerTicker: z.string(),
  tokenAddress: z.string(),
  targetWeightBps: z.number(),
  notionalUsd: z.number(),
  commandPack: commandPackSchema,
  intentTemplate: z
    .record(z.string(), z.unknown())
    .describe('a stock-lane intent without the two acknowledgments, which only the user gives'),
});

export const commandPackOut = z
  .object({
    packVersion: z.string(),
    coilId: z.string(),
    coilSlug: z.string(),
    manifestHash: z.string(),
    autonomyMode: autonomyModeField,
    chainId: z.literal(4663),
    totalNotionalUsd: z.number(),
    cashWeightBps: z.number(),
    venuePhrase: z.literal('on broker'),
    executor: z.literal('partner'),
    commands: z.array(partnerCommandOut),
    acknowledgmentsRequired: z.array(z.string()),
    svcExecutesTrade: z.literal(false),
    partnerContacted: z.literal(false),
    nextStep: z.string(),
  })
  .meta({ id: 'PartnerbotCommandPack' });

export const instructionsOut = z
  .object({
    instructionsVersion: z.string(),
    coilId: z.string(),
    coilSlug: z.string(),
    manifestHash: z.string(),
    autonomyMode: autonomyModeField,
    modeMeaning: z.string(),
    executor: z.literal('user_broker_mcp_session'),
    symbolSpace: z.literal('broker_ticker'),
    symbols: z.array(
      z.object({ brokerTicker: z.string(), targetWeightBps: z.number(), planNotionalUsd: z.number(), maxOrderNotionalUsd: z.number() }),
    ),
    cashWeightBps: z.number(),
    totalNotionalUsd: z.number(),
    fuses: z.array(z.object({ kind: z.string(), unit: fuseUnitOut, limit: z.number().nullable(), rule: z.string() })),
    fuseChecksum: z.string(),
    marketSession: marketSessionOut,
    humanConfirmation: z.object({ thresholdUsd: z.number().nullable(), rule: z.string() }),
    stopConditions: z.array(z.string()),
    abortConditions: z.array(z.string()),
    steps: z.array(z.string()),
    never: z.array(z.string()),
    postRunAudit: z.object({ route: z.string(), reportFields: z.array(z.string()), rule: z.string() }),
    svcExecutes: z.literal(false),
    svcHoldsCredentials: z.literal(false),
    containsOrders: z.literal(false),
  })
  .meta({ id: 'BrokerMcpInstructions', description: "The broker MCP execution capsule: what a user's own broker-MCP agent follows" });
