// LoCoMo loading lives in the evaluation (bench/eval/locomo/dataset.ts); the bench scripts
// import it from here.
export { CATEGORY_LABELS, loadLocomo, parseLocomoDate, readLocomo } from './eval/locomo/dataset.js';
export type { LocomoConversation, LocomoQuestion, LocomoTurn } from './eval/locomo/dataset.js';
