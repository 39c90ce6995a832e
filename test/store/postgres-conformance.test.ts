// The shared Store conformance suite and the memory-rule suite on PostgreSQL (a real server on
// 127.0.0.1, test/helpers/postgres.ts), unchanged.
import { runStoreConformance } from './conformance.js';
import { runMemoryRuleConformance } from './conformance-memory-rules.js';
import { freshPgStore } from '../helpers/postgres.js';
import { runLeaseConformance } from './conformance-leases.js';

runStoreConformance('postgres', async () => {
  const made = await freshPgStore();
  return { store: made.store, cleanup: made.cleanup };
});

runMemoryRuleConformance('postgres', async () => {
  const made = await freshPgStore();
  return { store: made.store, connect: made.connect, cleanup: made.cleanup };
});

runLeaseConformance('postgres', () => freshPgStore());
