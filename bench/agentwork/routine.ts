// Routine sessions between the scripted ones: the everyday work a coding agent does in a project
// (run the tests, fix what fails, tidy lint, look something up, small chores), drawn from the
// project's own files and outputs with a seeded generator. They hold no answers; they are the
// haystack, and they share the scripted sessions' vocabulary (paths, commands, error shapes).
import { a, bash, code, edit, grep, para, read, u, type Project, type Session, type Step } from './script.js';

type Rng = () => number;

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

const ACKS = ['ok', 'thanks', 'go ahead', 'looks good', 'nice, commit it', 'yep', 'ok cool', 'great, thanks', 'sounds right', 'sure', 'do it', 'perfect'];
const RUN_TESTS = [
  'can you run the tests',
  'run the suite and fix whatever is red',
  'something broke after my last push, check the tests?',
  'CI is failing on my branch, take a look',
  'before I open the PR, make sure tests pass',
  'tests please',
];
const LINT = ['lint is complaining, clean it up', 'run the linter and fix the warnings', 'can you tidy up the lint errors before review', 'fix lint'];
const WHERE = ['where does {base} get used?', 'remind me what lives in {path}', 'show me {base} real quick', 'walk me through {base}', 'what does {path} do again'];
const SUMMARY_OPENERS = ['Fixed.', 'Done —', 'All green now.', 'That did it.', 'Tests pass again.', 'Sorted.'];
const CLOSERS = [
  'Nothing else in the run looked suspicious.',
  'I left the rest of the file alone.',
  'I did not touch any other module.',
  'Let me know if you want a regression test for this as well.',
  'The change is small enough that I did not add a changelog entry.',
  'No other call sites needed changing.',
];

function testTask(rng: Rng, p: Project): Step[] {
  const r = p.routine;
  const steps: Step[] = [u(pick(rng, RUN_TESTS))];
  if (r.testFail.length === 0 || rng() < 0.3) {
    steps.push(a(pick(rng, ['Running the suite.', 'Let me run it.', '']), [bash(r.testCommand, r.testPass)]));
    steps.push(a(pick(rng, ['Everything passes, nothing to fix.', 'All tests pass on this branch.', 'Green across the board — the failure must have been a flaky run in CI.'])));
    return steps;
  }
  const f = pick(rng, r.testFail);
  const body = r.files.find((x) => x.path === f.file)?.body ?? f.before;
  steps.push(a(pick(rng, ['Running the tests first.', 'Let me see what fails.', '']), [bash(r.testCommand, f.output, { error: true })]));
  steps.push(a(`One failure. ${pick(rng, ['Reading the file it points at.', 'Let me look at the code under test.', 'Checking the source.'])}`, [read(f.file, body)]));
  steps.push(a('', [edit(f.file, f.before, f.after)]));
  steps.push(a('', [bash(r.testCommand, r.testPass)]));
  steps.push(
    a(
      para(
        `${pick(rng, SUMMARY_OPENERS)} ${f.fix}`,
        code('diff', `--- a/${f.file}\n+++ b/${f.file}\n${f.before.split('\n').map((l) => `-${l}`).join('\n')}\n${f.after.split('\n').map((l) => `+${l}`).join('\n')}`),
        pick(rng, CLOSERS),
      ),
    ),
  );
  return steps;
}

function lintTask(rng: Rng, p: Project): Step[] {
  const r = p.routine;
  const file = pick(rng, r.files);
  return [
    u(pick(rng, LINT)),
    a('', [bash(r.lint.command, r.lint.output, { error: true })]),
    a(`Mostly unused imports and one formatting nit in \`${file.path}\`. Fixing them.`, [read(file.path, file.body)]),
    a('', [bash(r.lint.command, '', {})]),
    a(pick(rng, ['Lint is clean now.', 'No more warnings.', 'Clean. Only whitespace and import order changed, no behaviour.'])),
  ];
}

function whereTask(rng: Rng, p: Project): Step[] {
  const file = pick(rng, p.routine.files);
  const base = file.path.split('/').pop()!.replace(/\.\w+$/, '');
  const q = pick(rng, WHERE).replace('{base}', base).replace('{path}', file.path);
  const lines = file.body.split('\n');
  const others = p.routine.files.filter((f) => f !== file).slice(0, 3);
  return [
    u(q),
    a('', [grep(base, [file.path, ...others.map((o) => o.path)].map((x, i) => `${x}:${3 + i * 7}:${i === 0 ? lines[0] : `import { ${base} } from './${base}'`}`).join('\n'))]),
    a('', [read(file.path, file.body)]),
    a(
      para(
        `\`${file.path}\` is ${lines.length} lines. The part that matters:`,
        code(file.path.split('.').pop() ?? '', lines.slice(0, Math.min(lines.length, 14)).join('\n')),
        others.length > 0 ? `It is used from ${others.map((o) => `\`${o.path}\``).join(', ')}.` : 'Nothing else imports it yet.',
        pick(rng, ['Want me to change anything in it?', 'It has no tests of its own right now.', 'It is covered indirectly by the integration tests.']),
      ),
    ),
  ];
}

function choreTask(rng: Rng, p: Project): Step[] {
  const chore = pick(rng, p.routine.chores);
  const file = pick(rng, p.routine.files);
  const sha = Array.from({ length: 7 }, () => '0123456789abcdef'[Math.floor(rng() * 16)]).join('');
  return [
    u(chore),
    a(pick(rng, ['On it.', 'Sure.', '']), [bash('git status --short', ` M ${file.path}\n?? notes.txt`)]),
    a('', [bash(`git add ${file.path} && git commit -m "${chore.replace(/"/g, "'").slice(0, 50)}"`, `[${pick(rng, ['main', 'dev', 'wip'])} ${sha}] ${chore.slice(0, 50)}\n 1 file changed, ${1 + Math.floor(rng() * 30)} insertions(+), ${Math.floor(rng() * 12)} deletions(-)`)]),
    a(`Committed as \`${sha}\`. I left \`notes.txt\` untracked since it looks like your scratch file.`),
  ];
}

const TASKS = [testTask, testTask, lintTask, whereTask, choreTask];

/** A routine session on `day`: two to four tasks, with short acknowledgements between some. */
export function routineSession(rng: Rng, p: Project, day: number): Session {
  const steps: Step[] = [];
  const n = 2 + Math.floor(rng() * 3);
  for (let i = 0; i < n; i++) {
    steps.push(...pick(rng, TASKS)(rng, p));
    if (rng() < 0.6) steps.push(u(pick(rng, ACKS)), a(pick(rng, ['👍', 'Done.', 'Anything else?', 'Will do.', 'Committed.'])));
  }
  return { day, hour: 8 + Math.floor(rng() * 10), steps };
}
