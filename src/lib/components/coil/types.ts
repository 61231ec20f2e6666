import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '$lib/trpc';

type Out = inferRouterOutputs<AppRouter>;
type In = inferRouterInputs<AppRouter>;

export type StoredCoil = Out['tools']['storedCoil'];
export type Coil = StoredCoil['coil'];
export type CoilInput = In['tools']['validateCoil']['coil'];
export type Receipt = StoredCoil['receipts'][number];
export type Health = StoredCoil['health'];
export type Provenance = StoredCoil['provenance'];
export type Validation = Out['tools']['validateCoil'];
export type RiskAudit = Out['tools']['riskAudit'];
export type Drift = Out['tools']['driftCheck'];
export type Capsule = Out['tools']['compileCapsule'];
export type ShareCard = Out['tools']['shareCard'];
export type Verification = Out['tools']['verifyCoil'];
/** A reading as a stored thesis carries it (any reader version); a fresh answer's reading is one too. */
export type ThesisReading = StoredCoil['readings'][number]['reading'];
