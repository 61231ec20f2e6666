// Imported first by the stdio entry, before the logger exists: over stdio, stdout carries
// protocol messages only, so the logger (src/lib/server/logger.ts) must write to stderr
// from its very first line.
process.env.SVC_LOG_STDERR = '1';
