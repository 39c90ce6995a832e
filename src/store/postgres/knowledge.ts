// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/knowledge.ts).
import { notPorted } from './not-ported.js';

export async function knowledgeCursor(..._args: unknown[]): Promise<never> {
  throw notPorted('knowledge.knowledgeCursor');
}
export async function memoriesAfter(..._args: unknown[]): Promise<never> {
  throw notPorted('knowledge.memoriesAfter');
}
export async function applyKnowledge(..._args: unknown[]): Promise<never> {
  throw notPorted('knowledge.applyKnowledge');
}
export async function resetKnowledge(..._args: unknown[]): Promise<never> {
  throw notPorted('knowledge.resetKnowledge');
}
