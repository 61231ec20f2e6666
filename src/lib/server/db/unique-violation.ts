/**
 * Whether a database error is a unique-constraint violation, on SQLite and PostgreSQL alike.
 * Writes that must happen once (a nonce, a plan's job, a receipt, an authorization, a
 * transaction held as proof) insert and treat this error as "someone else already did".
 *
 * Prisma reports it as P2002 for model queries on both driver adapters
 * (`@prisma/adapter-better-sqlite3`, `@prisma/adapter-pg`) and as P2010 for a raw query, whose
 * `meta.driverAdapterError.cause.kind` is the adapter's own classification
 * (`UniqueConstraintViolation`, from SQLITE_CONSTRAINT_* or PostgreSQL 23505). Both are read
 * from the error's structure, never from its message text (which differs per database and
 * per Prisma release). Checked against Prisma 6.19 by `tests/api/db-unique-violation.test.ts`
 * on both databases.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } };
  return e.code === 'P2002' || e.meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation';
}
