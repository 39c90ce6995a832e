// Named points where a kill -9 test stops the process on purpose, instead of killing it at a random
// moment (which, on a loaded machine, may land before the work starts or after it ends). With
// CAIRN_TEST=1 and CAIRN_TEST_PAUSE="<point>:<n>", the n-th time the process reaches <point> it
// writes "cairn-test-pause <point> <n>" to stderr and stops itself (SIGSTOP): the test then kills
// it exactly there. Without both variables (always, outside tests) a point costs one comparison.
import { writeSync } from 'node:fs';

export type CrashPoint =
  /** Inside the transaction that stores a batch of turns with its checkpoint, before it commits. */
  | 'turns-before-commit'
  /** Right after that transaction committed. */
  | 'turns-after-commit'
  /** A consolidation job rendered its file and is about to write it (the previous file is intact). */
  | 'digest-before-file'
  /** The job's file is written; its store row is not committed yet. */
  | 'digest-after-file'
  /** Inside the transaction that applies a knowledge batch (store applyKnowledge), half of it written. */
  | 'knowledge-mid-batch';

function armedPoint(): { point: string; n: number } | null {
  if (process.env.CAIRN_TEST !== '1') return null;
  const m = /^([a-z-]+):([1-9]\d{0,8})$/.exec(process.env.CAIRN_TEST_PAUSE ?? '');
  return m ? { point: m[1]!, n: Number(m[2]) } : null;
}

const armed = armedPoint();
let reached = 0;

export function crashPoint(point: CrashPoint): void {
  if (armed === null || armed.point !== point || ++reached !== armed.n) return;
  writeSync(2, `cairn-test-pause ${point} ${reached}\n`);
  process.kill(process.pid, 'SIGSTOP');
}
