/**
 * The Mode B gates (interface 4.6), written once: `describeModes` (is Mode B available beside a
 * deposit pack?) and `submitModeBIntent` (refuse before any field is read) both read this
 * list, so the two can never disagree about when Mode B is open.
 *
 * The gates see only whether each setting is configured, never a value: a deposit pack's
 * dependencies must not carry the partner API key.
 */

/** Whether each Mode B setting is configured (names only, never values). */
export interface ModeBConfig {
  depositExecutionEnabled: boolean;
  ownerApprovedWalletDeposit: boolean;
  partnerKeyConfigured: boolean;
  partnerWalletConfigured: boolean;
}

/** The settings the gates are read from (the partner key and wallet are only tested for presence). */
export interface ModeBGateSettings {
  depositExecutionEnabled: boolean;
  ownerApprovedWalletDeposit: boolean;
  partnerApiKey?: string;
  partnerWalletAddress?: string;
}

export interface ModeBGate {
  /** The setting that opens the gate. */
  setting: string;
  /** The refusal code while it is closed. */
  code: string;
  message: string;
  /**
   * `config` gates are refused before any field of a request is read; the wallet gate is
   * checked against the request's receiver once the receiver itself is valid.
   */
  stage: 'config' | 'receiver';
  open: (config: ModeBConfig) => boolean;
}

/** Why each gate refuses, by its refusal code. */
const CLOSED_GATE_MESSAGES: Readonly<Record<string, string>> = {
  MODE_B_DISABLED:
    'Mode B is disabled (PARTNERBOT_DEPOSIT_EXECUTION_ENABLED is not true). Use Mode A with Mode C: the deposit widget always works.',
  OWNER_APPROVAL_REQUIRED: 'Mode B needs the owner approval flag OWNER_APPROVED_PARTNER_WALLET_DEPOSIT to be true.',
  PARTNER_KEY_MISSING: 'Mode B needs the server-only partner API key (PARTNER_API_KEY), which is not configured.',
  RECEIVER_NOT_PARTNER_WALLET: 'Mode B needs PARTNER_WALLET_ADDRESS (the operator partner wallet), which is not configured.',
};

/** In the spec's order. */
export const MODE_B_GATES: readonly ModeBGate[] = (
  [
    { setting: 'PARTNERBOT_DEPOSIT_EXECUTION_ENABLED', code: 'MODE_B_DISABLED', stage: 'config', open: (c) => c.depositExecutionEnabled },
    {
      setting: 'OWNER_APPROVED_PARTNER_WALLET_DEPOSIT',
      code: 'OWNER_APPROVAL_REQUIRED',
      stage: 'config',
      open: (c) => c.ownerApprovedWalletDeposit,
    },
    { setting: 'PARTNER_API_KEY', code: 'PARTNER_KEY_MISSING', stage: 'config', open: (c) => c.partnerKeyConfigured },
    { setting: 'PARTNER_WALLET_ADDRESS', code: 'RECEIVER_NOT_PARTNER_WALLET', stage: 'receiver', open: (c) => c.partnerWalletConfigured },
  ] satisfies Omit<ModeBGate, 'message'>[]
).map((gate) => ({ ...gate, message: CLOSED_GATE_MESSAGES[gate.code]! }));

export function modeBConfigOf(settings: ModeBGateSettings): ModeBConfig {
  return {
    depositExecutionEnabled: settings.depositExecutionEnabled,
    ownerApprovedWalletDeposit: settings.ownerApprovedWalletDeposit,
    partnerKeyConfigured: Boolean(settings.partnerApiKey),
    partnerWalletConfigured: Boolean(settings.partnerWalletAddress),
  };
}

/** The closed gates of a stage (every stage when none is given), in the spec's order. */
export function closedModeBGates(config: ModeBConfig, stage?: ModeBGate['stage']): ModeBGate[] {
  return MODE_B_GATES.filter((g) => (stage === undefined || g.stage === stage) && !g.open(config));
}
