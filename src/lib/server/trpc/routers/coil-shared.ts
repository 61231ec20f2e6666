/**
 * Former home of the helpers the Coil families share; they now live in ../procedure-kit/.
 * Kept as re-exports only for the rail routers that still import them from here (autonomy),
 * until their own move; new code imports from procedure-kit.
 */
export { persistReceipt, storedCoilsOf, forkParentFor, withForkParent, ticketBuiltCoil } from '../procedure-kit/coil-store';
export { shareUrlBaseField, shareCardOrRefusal, storedShareCard } from '../procedure-kit/share-card';
export { promptErrorCode, toolInputErrorCode } from '../procedure-kit/input-error-codes';
export { strategistConfigOf } from '../procedure-kit/strategist-config';
