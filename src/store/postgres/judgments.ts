// NOT PORTED YET: stubs that the PostgreSQL port replaces with real functions (same names as sqlite/judgments.ts).
import { notPorted } from './not-ported.js';

export async function turnsBefore(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.turnsBefore');
}
export async function unjudgedTurns(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.unjudgedTurns');
}
export async function judgedTurns(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.judgedTurns');
}
export async function getJudgment(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.getJudgment');
}
export async function setMemoryImportance(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.setMemoryImportance');
}
export async function judgeStats(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.judgeStats');
}
export async function addFeedback(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.addFeedback');
}
export async function listFeedback(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.listFeedback');
}
export async function usageGet(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.usageGet');
}
export async function usageAdd(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.usageAdd');
}
export async function usageList(..._args: unknown[]): Promise<never> {
  throw notPorted('judgments.usageList');
}
