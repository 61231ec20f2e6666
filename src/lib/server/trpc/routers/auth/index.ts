/**
 * Sign-In with Ethereum and wallet sessions (interface 5, runtime contract "auth" rows):
 * GET /api/auth/nonce, POST /api/auth/verify, GET /api/auth/session, POST /api/auth/logout.
 */
import { router } from '../../init';
import { logoutProcedure } from './logout';
import { nonceProcedure } from './nonce';
import { sessionProcedure } from './session';
import { verifyProcedure } from './verify';

export const authRouter = router({
  nonce: nonceProcedure,
  verify: verifyProcedure,
  session: sessionProcedure,
  logout: logoutProcedure,
});
