/**
 * The strategist family (interface 4.2): `GET /api/agent/svc` reports the provider, `POST` turns
 * a thesis into a StrategistResponse.
 */
import { router } from '../../init';
import { generateProcedure } from './generate';
import { statusProcedure } from './status';

export const strategistRouter = router({
  status: statusProcedure,
  generate: generateProcedure,
});
