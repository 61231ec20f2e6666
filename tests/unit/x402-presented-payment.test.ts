/** The payment a paid x402 request presents (x402/paid-call.ts `presentedPayment`). */
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { findSvcError } from '../../src/lib/server/errors';
import { findPaidService } from '../../src/lib/server/x402/catalogue';
import { X402_HEADERS } from '../../src/lib/server/x402/constants';
import { vaultServiceLaneOf } from '../../src/lib/server/x402/lanes';
import { headerOfPaymentValue, presentedPayment } from '../../src/lib/server/x402/paid-call';

const PAY_TO = getAddress('0x00000000000000000000000000000000000a11ce');
const service = findPaidService('vault-risk-score')!;
const lane = vaultServiceLaneOf({ enabled: true, apiKey: 'k'.repeat(16), url: 'http://f.test', payToAddress: PAY_TO, timeoutMs: 100 });
const pinned = () => ({ payTo: PAY_TO, origin: 'https://svc.example' });
const headersOf = (values: Record<string, string>) => (name: string) => new Headers(values).get(name);
const base64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

describe('presented payment', () => {
  it('reads the one payment header a request carries, trimmed, and none when it carries none', () => {
    expect(presentedPayment({ header: headersOf({ [X402_HEADERS.v1.payment]: ' abc ' }), service, pinned, lane })).toEqual({
      header: X402_HEADERS.v1.payment,
      value: 'abc',
    });
    expect(presentedPayment({ header: headersOf({ [X402_HEADERS.v2.payment]: 'xyz' }), service, pinned, lane })).toEqual({
      header: X402_HEADERS.v2.payment,
      value: 'xyz',
    });
    expect(presentedPayment({ header: headersOf({}), service, pinned, lane })).toBeUndefined();
  });

  it('refuses two payment headers at once as a malformed payment with the requirements, even when the body gives one', () => {
    const both = headersOf({ [X402_HEADERS.v1.payment]: 'a', [X402_HEADERS.v2.payment]: 'b' });
    let thrown: unknown;
    try {
      presentedPayment({ header: both, bodyValue: base64({ x402Version: 2 }), service, pinned, lane });
    } catch (error) {
      thrown = error;
    }
    expect(findSvcError(thrown)?.code).toBe('X402_PAYMENT_MALFORMED');
  });

  it("takes a body value over the request's header, for the header its declared version stands for", () => {
    const header = headersOf({ [X402_HEADERS.v2.payment]: 'from-header' });
    const v1 = base64({ x402Version: 1 });
    expect(presentedPayment({ header, bodyValue: v1, service, pinned, lane })).toEqual({ header: X402_HEADERS.v1.payment, value: v1 });
    expect(headerOfPaymentValue(base64({ x402Version: 2 }))).toBe(X402_HEADERS.v2.payment);
    expect(headerOfPaymentValue('not base64 json')).toBe(X402_HEADERS.v2.payment);
  });
});
