/** Long descriptions of the receipt-log family (routers/receipt-log/), keyed by procedure path. */

export const RECEIPT_LOG_DOCS: Readonly<Record<string, string>> = {
  'receiptLog.keys':
    'Every Ed25519 key the service has signed receipts and log heads with, as JWKs (RFC 8037) with validFrom and validUntil; keys are never removed, so a receipt signed before a rotation still verifies. signingKeyId is the key signing now. Pass this document to the offline CLI (`svc verify --keys`).',
  'receiptLog.head':
    'Every stored Coil receipt is appended once to an RFC 9162 Merkle tree (leaf = the receipt’s canonical JSON without its signature). Keep a head: a later consistency proof shows the log only grew since.',
  'receiptLog.inclusion':
    'The leaf index, leaf hash and audit path of the receipt (one you may read: stored under no wallet or under yours) in the tree of treeSize entries (default: the current size), with the signed head of that tree. 404 RECEIPT_NOT_FOUND when you may not read such a receipt; 404 RECEIPT_NOT_LOGGED when it was stored before the log existed; 422 TREE_SIZE_OUT_OF_RANGE when treeSize is larger than the log or does not include the receipt.',
  'receiptLog.consistency':
    'RFC 9162 consistency proof that the tree of `second` entries (default: the current size) extends the tree of `first`, with both heads signed. Check it against the head you kept, not against firstHead: `svc log-consistency <your-head.json> <this-answer.json>`. 422 TREE_SIZE_OUT_OF_RANGE when first > second or second is larger than the log.',
};
