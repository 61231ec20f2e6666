/**
 * The autonomy path under /api/partnerbot (interface 4.1 "compile, validate autonomy fuses,
 * command packs, post-run audits"): free, unauthenticated, family `autonomy` (stamped). Each
 * procedure parses, calls one domain function of src/lib/server/autonomy/ and shapes the
 * answer. Nothing on this path sends anything to anyone.
 */
import { router } from '../../init';
import { validateAutonomyProcedure } from './validate-autonomy';
import { compileBrokerPathProcedure } from './compile-broker-path';
import { generateCommandPackProcedure } from './generate-command-pack';
import { brokerMcpInstructionsProcedure } from './broker-mcp-instructions';
import { postRunAuditProcedure } from './post-run-audit';

export const autonomyRouter = router({
  validateAutonomy: validateAutonomyProcedure,
  compileBrokerPath: compileBrokerPathProcedure,
  generateCommandPack: generateCommandPackProcedure,
  brokerMcpInstructions: brokerMcpInstructionsProcedure,
  postRunAudit: postRunAuditProcedure,
});
