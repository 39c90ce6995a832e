// LoCoMo loading lives in the product's evaluation (src/eval/locomo/dataset.ts); the bench scripts
// import it from here.
export { CATEGORY_LABELS, loadLocomo, parseLocomoDate, readLocomo } from '../src/eval/locomo/dataset.js';
export type { LocomoConversation, LocomoQuestion, LocomoTurn } from '../src/eval/locomo/dataset.js';
