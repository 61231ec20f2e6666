/** How many Coils one claim lists or claims at once (GET /api/me/claimable-coils, POST /api/me/claim-coils). */
export const CLAIM_LIST_LIMIT = 50;
