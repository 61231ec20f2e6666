/**
 * An in-memory AuthorizationStore for the x402 domain's unit tests: the same contract as the
 * Prisma repository (unique authorization key and payer payment identifier, a claim that
 * succeeds once, an unpaid final status drops the answer), and it can be told to fail the
 * settlement record.
 */
import type { PaymentReceipt } from '../../src/lib/server/x402/receipts';
import type { AuthorizationKey, AuthorizationStore, StoredAuthorization } from '../../src/lib/server/x402/settlement';

export class MemoryAuthorizationStore implements AuthorizationStore {
  rows = new Map<string, StoredAuthorization>();
  receipts = new Map<string, PaymentReceipt>();
  failRecord = false;
  private k = (key: AuthorizationKey) => `${key.network}|${key.asset}|${key.payer}|${key.nonce}`;
  private byId(id: string) {
    return [...this.rows.values()].find((r) => r.id === id)!;
  }

  async find(key: AuthorizationKey) {
    const row = this.rows.get(this.k(key));
    return row ? { ...row } : null;
  }
  async findByPaymentIdentifier(payer: string, paymentIdentifier: string) {
    const row = [...this.rows.values()].find((r) => r.payer === payer && r.paymentIdentifier === paymentIdentifier);
    return row ? { ...row } : null;
  }
  async reserve(row: StoredAuthorization, at: Date) {
    if (this.rows.has(this.k(row))) return false;
    if (row.paymentIdentifier && (await this.findByPaymentIdentifier(row.payer, row.paymentIdentifier))) return false;
    this.rows.set(this.k(row), { ...row, status: 'settling', updatedAt: at });
    return true;
  }
  async finish(id: string, status: StoredAuthorization['status'], facilitatorReason: string | null, transaction: string | null, at: Date) {
    const unpaid = status === 'refused' || status === 'expired_unused' || status === 'used_without_payment';
    Object.assign(this.byId(id), { status, facilitatorReason, transaction, updatedAt: at }, unpaid ? { answer: null } : {});
  }
  async claim(id: string, seen: { status: StoredAuthorization['status']; updatedAt: Date }, at: Date) {
    const row = this.byId(id);
    if (row.status !== seen.status || row.updatedAt.getTime() !== seen.updatedAt.getTime()) return false;
    Object.assign(row, { status: 'settling', updatedAt: at });
    return true;
  }
  async recordSettled(id: string, receipt: PaymentReceipt, at: Date, answerKeptUntil: Date) {
    if (this.failRecord) throw new Error('database unavailable');
    Object.assign(this.byId(id), {
      status: 'settled',
      receiptId: receipt.receiptId,
      transaction: receipt.facilitatorTransaction,
      answerKeptUntil,
      updatedAt: at,
    });
    if (!this.receipts.has(receipt.receiptId)) this.receipts.set(receipt.receiptId, receipt);
    return this.receipts.get(receipt.receiptId)!;
  }
  async findReceipt(receiptId: string) {
    return this.receipts.get(receiptId) ?? null;
  }
}
