/**
 * The tools family (interface 4.3): the nine Coil tools, plus provenance and the agent passport.
 * Each operation parses, calls the domain function, persists the Coil and its receipt, and
 * shapes the answer; the rules live in src/lib/server/{coil,receipts,strategist}.
 */
import { router } from '../../init';
import { compileCapsuleProcedure } from './compile-capsule';
import { driftCheckProcedure } from './drift-check';
import { generateCoilProcedure } from './generate-coil';
import { oraclePolicyProcedure } from './oracle-policy';
import { passportProcedure } from './passport';
import { provenanceProcedure } from './provenance';
import { receiptProcedure } from './receipt';
import { riskAuditProcedure } from './risk-audit';
import { scoreCoilProcedure } from './score-coil';
import { shareCardProcedure } from './share-card';
import { storedCoilProcedure } from './stored-coil';
import { storedShareCardProcedure } from './stored-share-card';
import { validateCoilProcedure } from './validate-coil';
import { verifyArtifactReceiptProcedure } from './verify-artifact-receipt';
import { verifyCoilProcedure } from './verify-coil';

export const toolsRouter = router({
  generateCoil: generateCoilProcedure,
  validateCoil: validateCoilProcedure,
  scoreCoil: scoreCoilProcedure,
  compileCapsule: compileCapsuleProcedure,
  riskAudit: riskAuditProcedure,
  driftCheck: driftCheckProcedure,
  receipt: receiptProcedure,
  shareCard: shareCardProcedure,
  storedShareCard: storedShareCardProcedure,
  verifyCoil: verifyCoilProcedure,
  oraclePolicy: oraclePolicyProcedure,
  verifyArtifactReceipt: verifyArtifactReceiptProcedure,
  provenance: provenanceProcedure,
  storedCoil: storedCoilProcedure,
  passport: passportProcedure,
});
