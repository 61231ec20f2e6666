import { z } from 'zod';
import { validateAutonomy } from '../../../autonomy/validate';
import { buildArtifactReceipt } from '../../../receipts/artifact';
import { manifestHashOf } from '../../../receipts/receipt';
import { nowIsoField, publicProcedure, stampedOutput } from '../../init';
import { issueOut } from '../../../coil/validation.schema';
import { artifactReceiptOut } from '../../../receipts/artifact.schema';
import { meta } from './meta';
import { ackField, autonomyModeField, coilField, fusesField } from './inputs';
import { autonomyFuseOut, gateOut } from './shapes';
import { signedAnswer } from '../../procedure-kit/tool-answer';

export const validateAutonomyProcedure = publicProcedure
  .meta(
    meta(
      'svc_validate_autonomy_fuses',
      '/partnerbot/validate-autonomy',
      'Validate a Coil, its autonomy fuses, the mode and the live-autonomy acknowledgment',
    ),
  )
  .input(
    z.object({
      coil: coilField,
      autonomyMode: autonomyModeField.optional(),
      fuses: fusesField.optional(),
      liveAutonomyAck: ackField.optional(),
      nowIso: nowIsoField,
    }),
  )
  .output(
    stampedOutput({
      generatedAt: z.string(),
      issues: z.array(issueOut),
      gate: gateOut,
      fuses: z.array(autonomyFuseOut).describe("the fuse set in force: the Coil's, tightened by the added ones"),
      fuseChecksum: z.string(),
      receipt: artifactReceiptOut,
    }),
  )
  .mutation(({ ctx, input }) => {
    const evaluation = validateAutonomy(input.coil, input, ctx.serverTime);
    const manifestHash = manifestHashOf(input.coil);
    const subject = {
      manifestHash,
      mode: evaluation.mode,
      issues: evaluation.issues,
      gate: evaluation.gate,
      fuses: evaluation.fuses,
      fuseChecksum: evaluation.fuseChecksum,
    };
    return signedAnswer(ctx, {
      generatedAt: ctx.answerTime.toISOString(),
      issues: evaluation.issues,
      gate: evaluation.gate,
      fuses: evaluation.fuses,
      fuseChecksum: evaluation.fuseChecksum,
      receipt: buildArtifactReceipt('autonomy_validation', subject, ctx.answerTime, manifestHash),
    });
  });
