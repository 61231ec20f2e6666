/** Pure helpers of the web app: error words for people, exact percent parsing, the stock timeline, the chain guard. */
import { describe, expect, it } from 'vitest';
import { bpsToPercentText, percentToBps } from '../../src/lib/components/coil/percent';
import { stockTimeline } from '../../src/lib/components/stocks/timeline';
import { TRPCClientError } from '@trpc/client';
import { explainError, forPeople, NETWORK_FAILED, readError } from '../../src/lib/ui/errors';
import { GLOSSARY } from '../../src/lib/ui/glossary';
import { slippageBpsProblem, usdgAmountProblem } from '../../src/lib/ui/field-checks';
import { countdown, usdgDecimal, usdgFromUnits } from '../../src/lib/ui/format';
import { coiledByLabel, strategistLabel } from '../../src/lib/ui/strategist-words';

describe('messages for people', () => {
  it('never shows a configuration name, and keeps messages that have none', () => {
    expect(
      forPeople('PARTNER_NOT_CONFIGURED', 'The partner strategist is not configured (PARTNER_API_URL and PARTNER_API_KEY)'),
    ).not.toMatch(/PARTNER_API/);
    expect(forPeople('SOMETHING', 'Needs BROKER_CHAIN_RPC_URL to read the chain')).toBe(
      'Needs a setting of this deployment to read the chain',
    );
    expect(forPeople('SOMETHING', 'Blocked (FACILITATOR_URL missing) until fixed')).toBe('Blocked until fixed');
    expect(forPeople('PROMPT_TOO_LONG', 'The prompt is over 2000 characters')).toBe('The prompt is over 2000 characters');
  });

  it('names the strategist in words, never the fallback reason', () => {
    expect(
      strategistLabel({
        provider: 'mock',
        usedFallback: true,
        fallbackReason: 'PARTNER_NOT_CONFIGURED: PARTNER_API_URL and PARTNER_API_KEY are not set',
      }),
    ).toBe("Local strategist (the partner's agent is not connected)");
    expect(strategistLabel({ provider: 'mock', usedFallback: true, fallbackReason: 'PARTNER_TIMEOUT: no answer within 15000 ms' })).toBe(
      "Local strategist (the partner's agent did not answer in time)",
    );
    expect(strategistLabel({ provider: 'mock', usedFallback: false })).toBe('Local strategist');
    expect(strategistLabel({ provider: 'partner', usedFallback: false })).toBe("Partner's agent");
    expect(coiledByLabel([])).toMatch(/person/);
  });
});

describe('what happened and what to do', () => {
  it('reads a request that never reached the service as a network failure, with a retry and no "Failed to fetch"', () => {
    const failed = readError(TRPCClientError.from(new TypeError('Failed to fetch')));
    expect(failed).toMatchObject({ code: NETWORK_FAILED, message: 'No answer came back from the service.' });
    expect(explainError(failed)).toEqual({
      headline: 'The service could not be reached.',
      advice: 'Check your connection, then try again. Nothing was sent or signed.',
      retryable: true,
    });
  });

  it('offers a retry for a busy or failing service, never for a refusal that needs a change', () => {
    expect(explainError({ code: 'RATE_LIMITED', message: '', issues: [], status: 429 }).retryable).toBe(true);
    expect(explainError({ code: 'DATABASE_UNAVAILABLE', message: '', issues: [], status: 503 }).retryable).toBe(true);
    const refusal = explainError({ code: 'STOCK_INTENT_INVALID', message: '', issues: [{ code: 'X', message: 'y' }], status: 422 });
    expect(refusal).toMatchObject({ headline: 'This needs a change before it can go through.', retryable: false });
    expect(explainError({ code: 'SESSION_REQUIRED', message: '', issues: [], status: 401 }).headline).toBe('Sign in first.');
  });
});

describe('the glossary', () => {
  it('has one entry per id, each a sentence, covering the words the pages explain', () => {
    const ids = GLOSSARY.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of GLOSSARY) expect(e.short).toMatch(/\.$/);
    for (const word of ['Coil', 'Canonical', 'Calldata', 'Capsule', 'Fuses', 'Rail A', 'Mode A, B, C', 'broker_chain', 'Partner'])
      expect(GLOSSARY.map((e) => e.word)).toContain(word);
  });
});

describe('weights typed as percentages', () => {
  it('reads exactly into basis points and refuses what it cannot read exactly', () => {
    expect(percentToBps('25')).toEqual({ bps: 2500 });
    expect(percentToBps('12.5')).toEqual({ bps: 1250 });
    expect(percentToBps('0.05')).toEqual({ bps: 5 });
    expect(percentToBps('100')).toEqual({ bps: 10000 });
    expect('problem' in percentToBps('12.345')).toBe(true);
    expect('problem' in percentToBps('100.01')).toBe(true);
    expect('problem' in percentToBps('-1')).toBe(true);
    expect('problem' in percentToBps('1e2')).toBe(true);
    for (const bps of [1, 5, 50, 1250, 2505, 10000]) expect(percentToBps(bpsToPercentText(bps))).toEqual({ bps });
  });
});

describe('amounts and time', () => {
  it('writes USDG with its six decimals, from units and from decimals', () => {
    expect(usdgFromUnits('12500000')).toBe('12.500000 USDG');
    expect(usdgFromUnits('1234567890001')).toBe('1,234,567.890001 USDG');
    expect(usdgDecimal('12.5')).toBe('12.500000 USDG');
    expect(countdown(899.4)).toBe('14:59');
    expect(countdown(3723)).toBe('1:02:03');
    expect(countdown(0)).toBe('expired');
  });
});

describe('stock receipt timeline', () => {
  const base = {
    planHash: 'ab'.repeat(32),
    jobId: null,
    partnerJobStatus: null,
    txHash: null,
    blockNumber: null,
    proofBinding: null,
    executorKnown: false,
    executors: [] as { address: string; source: string }[],
    history: [] as { toStatus: string; partnerJobStatus: string | null; txHash: string | null }[],
  };
  const stateOf = (steps: ReturnType<typeof stockTimeline>, key: string) => steps.find((s) => s.key === key)!.state;

  it('shows the trade on chain only with on-chain proof', () => {
    const completed = stockTimeline({ ...base, status: 'job_completed_unconfirmed', jobId: 'job-1', partnerJobStatus: 'completed' });
    expect(stateOf(completed, 'partner_completed')).toBe('done');
    expect(stateOf(completed, 'onchain')).toBe('pending');
    // A status that claims proof without a transaction is not shown as proven.
    expect(stateOf(stockTimeline({ ...base, status: 'onchain_confirmed' }), 'onchain')).toBe('pending');
    const proven = stockTimeline({ ...base, status: 'onchain_confirmed', txHash: `0x${'1'.repeat(64)}`, blockNumber: '12' });
    expect(stateOf(proven, 'onchain')).toBe('done');
    expect(proven.find((s) => s.key === 'onchain')!.detail).toContain('block 12');
    expect(stateOf(stockTimeline({ ...base, status: 'onchain_reverted', txHash: `0x${'2'.repeat(64)}` }), 'onchain')).toBe('failed');
    expect(stateOf(stockTimeline({ ...base, status: 'job_failed', jobId: 'job-2', partnerJobStatus: 'failed' }), 'partner_completed')).toBe(
      'failed',
    );
    expect(
      stockTimeline({ ...base, status: 'prepared' })
        .map((s) => s.label)
        .join(' '),
    ).not.toMatch(/fill/i);
  });

  it('says in plain words who can prove the plan, and whether its proof is tied to who traded (issue 34, item 1)', () => {
    const tx = `0x${'3'.repeat(64)}`;
    const detail = (r: Parameters<typeof stockTimeline>[0], key: string) => stockTimeline(r).find((s) => s.key === key)!.detail!;
    const unbound = { ...base, status: 'onchain_confirmed', txHash: tx, proofBinding: 'caller_claim' };
    expect(detail(unbound, 'onchain')).toContain('by token, amount and time only: it is not tied to who traded');
    expect(detail(unbound, 'prepared')).toContain('No trader is known for this plan');
    const wallet = '0x00000000000000000000000000000000000000E1';
    const bound = {
      ...unbound,
      proofBinding: 'executor_wallet',
      executorKnown: true,
      executors: [{ address: wallet, source: 'siwe_session' }],
    };
    expect(detail(bound, 'onchain')).toContain('sent by the wallet known to trade for this plan');
    expect(detail(bound, 'prepared')).toContain(`Only a trade sent by ${wallet}`);
  });
});

describe('the chain-4663 guard of every wallet action', async () => {
  const { ensureBrokerChain, sendTransactionOnBrokerChain, WalletChainError } = await import('../../src/lib/wallet/chain');
  const PARAMS = {
    chainId: '0x1237',
    chainName: 'Broker chain',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: ['https://rpc.example'],
  };

  function wallet(start: number, onSwitch: 'accept' | 'refuse' | 'unknown' | 'ignore') {
    let chain = start;
    let known = onSwitch !== 'unknown';
    const calls: string[] = [];
    return {
      calls,
      async request({ method, params }: { method: string; params?: unknown }) {
        calls.push(method);
        if (method === 'eth_chainId') return `0x${chain.toString(16)}`;
        if (method === 'wallet_switchEthereumChain') {
          if (onSwitch === 'refuse') throw Object.assign(new Error('rejected'), { code: 4001 });
          if (onSwitch === 'ignore') return null;
          if (!known) throw Object.assign(new Error('unknown chain'), { code: 4902 });
          chain = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16);
          return null;
        }
        if (method === 'wallet_addEthereumChain') {
          known = true;
          chain = Number.parseInt((params as [{ chainId: string }])[0].chainId, 16);
          return null;
        }
        if (method === 'eth_sendTransaction') return `0x${'a'.repeat(64)}`;
        throw new Error(`unexpected ${method}`);
      },
    };
  }

  it('does nothing on 4663, switches from 1, adds an unknown chain, and refuses otherwise', async () => {
    const on = wallet(4663, 'refuse');
    expect(await ensureBrokerChain(on, PARAMS)).toBe(4663);
    expect(on.calls).toEqual(['eth_chainId']);

    const switching = wallet(1, 'accept');
    expect(await ensureBrokerChain(switching, PARAMS)).toBe(4663);
    expect(switching.calls).toEqual(['eth_chainId', 'wallet_switchEthereumChain', 'eth_chainId']);

    const adding = wallet(1, 'unknown');
    expect(await ensureBrokerChain(adding, PARAMS)).toBe(4663);
    expect(adding.calls).toEqual(['eth_chainId', 'wallet_switchEthereumChain', 'wallet_addEthereumChain', 'eth_chainId']);

    await expect(ensureBrokerChain(wallet(1, 'refuse'), PARAMS)).rejects.toMatchObject({ code: 'WALLET_CHAIN_SWITCH_DECLINED' });
    await expect(ensureBrokerChain(wallet(1, 'ignore'), PARAMS)).rejects.toMatchObject({ code: 'WALLET_CHAIN_NOT_SWITCHED' });
    // Without a public RPC address there is nothing to add: refused, with the reason.
    await expect(ensureBrokerChain(wallet(1, 'unknown'), undefined)).rejects.toBeInstanceOf(WalletChainError);
  });

  it('sends a transaction only after the guard, naming chain 4663', async () => {
    const refusing = wallet(1, 'refuse');
    await expect(sendTransactionOnBrokerChain(refusing, { from: '0x1', to: '0x2', data: '0x' })).rejects.toMatchObject({
      code: 'WALLET_CHAIN_SWITCH_DECLINED',
    });
    expect(refusing.calls).not.toContain('eth_sendTransaction');
  });
});

describe('field checks', () => {
  it('reads a slippage only as whole basis points', () => {
    expect(slippageBpsProblem(' 100 ')).toBeNull();
    expect(slippageBpsProblem('0')).toBeNull();
    for (const text of ['1.5', '', '-1', '1%', 'abc']) expect(slippageBpsProblem(text)).toBe('whole basis points, e.g. 100 for 1 %');
  });

  it('reads a USDG amount as positive with at most 6 decimals, naming the form’s example otherwise', () => {
    expect(usdgAmountProblem('25', '25')).toBeNull();
    expect(usdgAmountProblem(' 0.000001 ', '25')).toBeNull();
    expect(usdgAmountProblem('0', '100')).toBe('a positive USDG amount with at most 6 decimals, e.g. 100');
    expect(usdgAmountProblem('1.1234567', '25')).toBe('a positive USDG amount with at most 6 decimals, e.g. 25');
    expect(usdgAmountProblem('abc', '25')).not.toBeNull();
  });
});
