// Routine sessions between the scripted ones: the everyday work a coding agent does in a project
// (run the tests, fix what fails, tidy lint, look something up, small chores), drawn from the
// project's own files and outputs with a seeded generator. They hold no answers; they are the
// haystack, and they share the scripted sessions' vocabulary (paths, commands, error shapes).
import { a, bash, code, edit, grep, para, read, u, type Project, type Session, type Step } from './script.js';

type Rng = () => number;

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;

/** A seeded Fisher-Yates shuffle (a random comparator in sort() depends on the engine's sort). */
export function shuffled<T>(rng: Rng, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

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

const REVIEW_ASKS = [
  'review the last few commits before I merge, anything risky?',
  'write me a short overview of how the pieces fit together, for the new contractor',
  'what would you refactor first in here if we had a free week?',
  'can you do a quick code review of {a} and {b}',
  'summarise the state of the repo, I have been away for a bit',
];
const RISKS = [
  'error handling is uneven: some paths log and continue, others return the error unwrapped, so the caller cannot tell which failures are retryable',
  'there is no test that exercises the two modules together; each is tested against a hand-written fake of the other, and the fakes have drifted',
  'configuration is read in three places with slightly different defaults, which is how a wrong value survives a review',
  'a few functions take six or more positional parameters; an options object would make call sites readable and future additions cheap',
  'the module boundaries are fine, but names like `data`, `info` and `handle` make grep useless; renaming them is cheap now and expensive later',
  'logging includes whole request bodies at debug level, which is a privacy problem if debug is ever turned on in production',
];

/** A long review message (one to a few thousand characters) that walks through several files. */
function reviewTask(rng: Rng, p: Project): Step[] {
  const files = shuffled(rng, p.routine.files).slice(0, 2 + Math.floor(rng() * 3));
  const ask = pick(rng, REVIEW_ASKS).replace('{a}', files[0]!.path).replace('{b}', files[1]!.path);
  const risks = shuffled(rng, RISKS).slice(0, 2 + Math.floor(rng() * 3));
  const sections = files.map((f, i) =>
    para(
      `**${i + 1}. \`${f.path}\`** (${f.body.split('\n').length} lines)`,
      code(f.path.split('.').pop() ?? '', f.body),
      pick(rng, [
        'This reads well. The one thing I would change is to move the constant next to where it is used and give it a comment saying where the number comes from.',
        'Small and focused. It has no direct test; it is only covered through the higher-level tests, so a regression here would show up as a confusing failure somewhere else.',
        'It mixes parsing and I/O in one function, which is why its tests need a temporary directory. Splitting the pure part out would make them trivial.',
        'Fine as it is. If it grows, the branching in the middle is the part to pull out first.',
      ]),
    ),
  );
  return [
    u(ask),
    a('', files.map((f) => read(f.path, f.body))),
    a(
      para(
        `I went through ${files.map((f) => `\`${f.path}\``).join(', ')} and the recent history. Overall the code is in decent shape; nothing here blocks a merge.`,
        ...sections,
        '**Things I would keep an eye on**',
        risks.map((r) => `- ${r}`).join('\n'),
        '**How I checked**',
        code('sh', `${p.routine.testCommand}\n${p.routine.lint.command}`),
        pick(rng, ['Both are green apart from the lint warnings we already know about.', 'Tests pass; lint has the usual two warnings.', 'All green.']),
        `If you want one follow-up from this, I would pick: ${pick(rng, p.routine.chores)}.`,
      ),
    ),
  ];
}

const TASKS = [testTask, testTask, lintTask, whereTask, choreTask, reviewTask, reviewTask];

/** A routine session on `day`: two to four tasks, an aside when one is given, short acknowledgements between some. */
export function routineSession(rng: Rng, p: Project, day: number, aside?: readonly [string, string]): Session {
  const steps: Step[] = [];
  const n = 2 + Math.floor(rng() * 3);
  const asideAt = Math.floor(rng() * n);
  for (let i = 0; i < n; i++) {
    if (aside && i === asideAt) steps.push(u(aside[0]), a(aside[1]));
    steps.push(...pick(rng, TASKS)(rng, p));
    if (rng() < 0.6) steps.push(u(pick(rng, ACKS)), a(pick(rng, ['👍', 'Done.', 'Anything else?', 'Will do.', 'Committed.'])));
  }
  return { day, hour: 8 + Math.floor(rng() * 10), steps };
}
