// Scenario: tidepool, a TypeScript booking API (Maya). Redis connection leak, logger choice,
// DST-flaky tests, a failed production migration, a pooler that changes the staging port.
import { a, bash, code, edit, grep, para, read, u, type Project } from './script.js';

const RATE_LIMIT_OLD = `import { createClient } from 'redis';
import type { Middleware } from '../http/types.js';

export const rateLimit: Middleware = async (req, res, next) => {
  const client = createClient({ url: process.env.REDIS_URL });
  await client.connect();
  const key = \`rl:\${req.apiKey}:\${Math.floor(Date.now() / 60000)}\`;
  const n = await client.incr(key);
  await client.expire(key, 90);
  if (n > limitFor(req.apiKey)) return res.status(429).json({ error: 'rate_limited' });
  next();
};`;

export const tidepool: Project = {
  id: 'tidepool',
  person: 'Maya',
  cwd: '/home/maya/code/tidepool',
  start: '2026-02-02',
  routine: {
    files: [
      { path: 'src/booking/window.ts', body: "import { addMinutes } from 'date-fns';\n\nexport function slotsFor(day: Date, opening: Opening): Slot[] {\n  const out: Slot[] = [];\n  for (let t = opening.start; t < opening.end; t = addMinutes(t, opening.step)) out.push({ start: t });\n  return out;\n}" },
      { path: 'src/http/routes/bookings.ts', body: "export const bookings = router()\n  .get('/bookings/:id', getBooking)\n  .post('/bookings', createBooking)\n  .post('/bookings/:id/reschedule', reschedule);" },
      { path: 'src/lib/db.ts', body: "import { PrismaClient } from '@prisma/client';\n\nexport const db = new PrismaClient({ log: ['warn', 'error'] });" },
      { path: 'src/clinics/hours.ts', body: "export function isOpen(hours: Hours, at: Date): boolean {\n  const d = hours[at.getUTCDay()];\n  return d !== undefined && at >= d.open && at < d.close;\n}" },
    ],
    testCommand: 'pnpm vitest run',
    testPass: ' ✓ src/booking/window.test.ts (14 tests) 212ms\n ✓ src/http/routes/bookings.test.ts (22 tests) 640ms\n ✓ src/clinics/hours.test.ts (9 tests) 31ms\n\n Test Files  3 passed (3)\n      Tests  45 passed (45)',
    testFail: [
      {
        output: " FAIL  src/clinics/hours.test.ts > isOpen > closed on sundays\nAssertionError: expected true to be false\n ❯ src/clinics/hours.test.ts:41:32\n\n Test Files  1 failed | 2 passed (3)\n      Tests  1 failed | 44 passed (45)",
        fix: 'The Sunday check read `hours[at.getDay()]`, the local weekday; it now uses `getUTCDay()` like the rest of the module.',
        file: 'src/clinics/hours.ts',
        before: '  const d = hours[at.getDay()];',
        after: '  const d = hours[at.getUTCDay()];',
      },
      {
        output: " FAIL  src/http/routes/bookings.test.ts > POST /bookings/:id/reschedule > rejects past slots\nError: expected 422 \"Unprocessable Entity\", got 200 \"OK\"\n ❯ src/http/routes/bookings.test.ts:118:8",
        fix: 'The reschedule handler never compared the new slot with the current time; it returns 422 for a slot in the past now.',
        file: 'src/http/routes/bookings.ts',
        before: "  .post('/bookings/:id/reschedule', reschedule);",
        after: "  .post('/bookings/:id/reschedule', rejectPastSlots, reschedule);",
      },
    ],
    lint: { command: 'pnpm eslint src --max-warnings 0', output: "src/lib/db.ts\n  1:10  warning  'Prisma' is defined but never used  @typescript-eslint/no-unused-vars\nsrc/booking/window.ts\n  3:1  warning  Missing return type on function  @typescript-eslint/explicit-function-return-type\n\n✖ 2 problems (0 errors, 2 warnings)" },
    chores: ['bump vitest to the latest minor', 'add a changelog line for the reschedule endpoint', 'rename slotsFor to openSlots everywhere', 'delete the unused seed script'],
  },
  sessions: [
    {
      day: 0,
      hour: 9,
      branch: 'fix/redis-clients',
      steps: [
        u('staging falls over every few hours, the API starts throwing on every request. ops says redis is refusing connections. can you dig in?'),
        a("Let me look at the logs you have locally and at how we talk to Redis.", [
          bash('tail -n 20 logs/staging-api.log', 'ReplyError: ERR max number of clients reached\n    at parseError (node_modules/redis-parser/lib/parser.js:179:12)\n    at RedisSocket.<anonymous> (node_modules/@redis/client/dist/lib/client/socket.js:91:18)\n    at rateLimit (src/middleware/rateLimit.ts:6:16)\n[2026-02-01T23:14:02Z] 500 POST /bookings 3ms', { key: 'tp-log' }),
          grep('createClient', 'src/middleware/rateLimit.ts:5:  const client = createClient({ url: process.env.REDIS_URL });\nsrc/jobs/reminders.ts:12:const redis = createClient({ url: process.env.REDIS_URL });'),
        ]),
        a('', [read('src/middleware/rateLimit.ts', RATE_LIMIT_OLD), read('.env.staging', 'DATABASE_URL=postgres://tidepool@db-staging.internal:5433/tidepool\nREDIS_URL=redis://cache-staging.internal:6379/0\nLOG_LEVEL=info', 'tp-env-old')]),
        a(
          para(
            "Found it. The rate limiter is the culprit, and it is not subtle once you see it.",
            "`src/middleware/rateLimit.ts` calls `createClient()` and `connect()` **inside the middleware**, so every single HTTP request opens a brand-new TCP connection to Redis. Nothing ever calls `quit()`, so each connection stays open until the server-side idle timeout reaps it — and our staging Redis has `timeout 0`, meaning never. Under the synthetic traffic staging gets, that is a few connections per second, and after a few hours we hit `maxclients` (10000 by default). From then on Redis answers every new connection with `ERR max number of clients reached`, which is exactly the stack in the log: it surfaces at `rateLimit (src/middleware/rateLimit.ts:6:16)`, the `connect()` line.",
            "The reminders job (`src/jobs/reminders.ts`) also creates its own client, but once at module load, so it is fine — it is one long-lived connection.",
            "The fix is to have one client per process. I'd put it in a new module, `src/lib/redis.ts`, export it as a named export, connect it once at startup in `src/server.ts`, and import it from the middleware and the reminders job:",
            code('ts', "import { createClient } from 'redis';\n\nexport const redis = createClient({ url: process.env.REDIS_URL, socket: { reconnectStrategy: (n) => Math.min(n * 100, 3000) } });\nredis.on('error', (err) => log.error({ err }, 'redis error'));"),
            "and the middleware becomes:",
            code('ts', "import { redis } from '../lib/redis.js';\n\nexport const rateLimit: Middleware = async (req, res, next) => {\n  const key = `rl:${req.apiKey}:${Math.floor(Date.now() / 60000)}`;\n  const [n] = await redis.multi().incr(key).expire(key, 90).exec();\n  if (Number(n) > limitFor(req.apiKey)) return res.status(429).json({ error: 'rate_limited' });\n  next();\n};"),
            "I also folded the INCR and EXPIRE into one MULTI so a crash between them cannot leave a key without a TTL. Shall I make the change?",
          ),
          undefined,
          'tp-redis-root',
        ),
        u('yes please'),
        a('', [edit('src/middleware/rateLimit.ts', "  const client = createClient({ url: process.env.REDIS_URL });\n  await client.connect();", "  // one shared client: see src/lib/redis.ts"), bash('pnpm vitest run src/middleware', ' ✓ src/middleware/rateLimit.test.ts (6 tests) 88ms\n\n Test Files  1 passed (1)\n      Tests  6 passed (6)')]),
        a('Done, the middleware now imports the shared client from `src/lib/redis.ts` and tests pass. While we are in here: the logging is still `console.log` with string concatenation. Do you want structured logs?', undefined, 'tp-redis-done'),
        u("yeah. let's go with pino. we benchmarked winston last year on the old monolith and it ate like 15% of request time under load, and I want plain JSON lines so Loki can parse them without a regex pipeline", 'tp-logger'),
        a(
          para(
            'Makes sense — pino writes newline-delimited JSON by default and does the serialisation off the hot path with `pino.destination({ sync: false })`, so it is the cheapest option. I added `src/lib/log.ts`:',
            code('ts', "import pino from 'pino';\n\nexport const log = pino({ level: process.env.LOG_LEVEL ?? 'info', base: { service: 'tidepool' } }, pino.destination({ sync: false }));"),
            'and replaced the `console.log` calls in `src/server.ts` and the middleware. Request logging goes through `pino-http` with the request id we already set.',
          ),
          [bash('pnpm add pino pino-http', 'Packages: +9\n+++++++++\ndependencies:\n+ pino 9.6.0\n+ pino-http 10.4.0\nDone in 3.1s')],
        ),
        u('thanks'),
      ],
    },
    {
      day: 6,
      hour: 14,
      branch: 'fix/dst-flake',
      steps: [
        u('the booking window tests failed twice this morning on CI and passed on rerun. started this week, nothing in the diff touches dates'),
        a('', [bash('TZ=America/New_York pnpm vitest run src/booking', " FAIL  src/booking/window.test.ts > slotsFor > gives 16 half-hour slots on a 9-17 day\nAssertionError: expected 15 to equal 16\n ❯ src/booking/window.test.ts:27:29\n\n Test Files  1 failed (1)\n      Tests  1 failed | 13 passed (14)", { error: true })], 'tp-tz-repro'),
        a(
          para(
            "Reproduced deterministically by forcing a US timezone: with `TZ=America/New_York` the '16 half-hour slots' test gets 15.",
            "Root cause: the test builds its day with `new Date(2026, 2, 8)` — that constructor interprets its arguments in the **machine's local time zone**. March 8 2026 is the day US clocks spring forward, so in New York that day only has 23 hours and one slot between 9 and 17 local maps onto the skipped hour. CI runners pick up whatever TZ the image has, and one of our runner pools was switched to a US region, which is why it looked random. The production code is fine (it works in UTC); the fixture was not.",
            "Two changes:",
            "1. `src/booking/window.test.ts` builds dates with `Date.UTC(...)` (and `zonedTimeToUtc` from date-fns-tz for the clinic-local cases).\n2. The test script pins `TZ=UTC` in `package.json` so nothing else can depend on the runner's zone by accident:",
            code('json', '"scripts": {\n  "test": "TZ=UTC vitest run"\n}'),
          ),
          [edit('src/booking/window.test.ts', 'const day = new Date(2026, 2, 8);', 'const day = new Date(Date.UTC(2026, 2, 8));')],
          'tp-tz-root',
        ),
        u("good. one thing, I saw you wrote `export default function` in the new helper. please don't, we only do named exports in this codebase, default exports make renames and grep miserable", 'tp-named'),
        a("Understood — switched `src/booking/clinicTime.ts` to `export function toClinicTime` and updated the two imports. I'll stick to named exports from now on.", [edit('src/booking/clinicTime.ts', 'export default function toClinicTime(', 'export function toClinicTime(')]),
        u('also use pnpm for everything, I saw an npm lockfile appear in the diff', 'tp-pnpm'),
        a('Sorry about that: I ran `npm install` once out of habit. Removed `package-lock.json`; the repo has `pnpm-lock.yaml` and `packageManager: pnpm@9.15.0` in package.json.', [bash('git rm --cached package-lock.json && rm package-lock.json', "rm 'package-lock.json'")]),
        u("ok. heads up on timing: Harbor Dental gets a demo of the reschedule flow on March 12, so that has to be solid by then. that's the priority for the next weeks", 'tp-demo'),
        a('Noted — reschedule flow, working end to end, before the Harbor Dental demo on 12 March. I will keep the other work behind it.'),
      ],
    },
    {
      day: 15,
      hour: 10,
      branch: 'main',
      steps: [
        u('deploy to prod failed at the migrate step. here is what the pipeline said: "Error: P3009 migrate found failed migrations in the target database". help'),
        a('', [bash('pnpm prisma migrate status', "Following migration have failed:\n20260210_booking_idx\n\nDuring development if the failed migration(s) have not been deployed to a production database you can then fix the migration(s) and run prisma migrate dev.", { error: true }), read('prisma/migrations/20260210_booking_idx/migration.sql', 'CREATE INDEX CONCURRENTLY "Booking_clinicId_start_idx" ON "Booking"("clinicId", "start");\nALTER TABLE "Booking" ADD COLUMN "rescheduledFrom" TEXT;')]),
        a(
          para(
            'The migration `20260210_booking_idx` failed half-way and Prisma now refuses to run anything until we tell it what happened.',
            'Why it failed: Postgres does not allow `CREATE INDEX CONCURRENTLY` inside a transaction block, and Prisma wraps each migration file in a transaction when the file holds more than one statement. Locally it "worked" because the dev database was empty and the migration was applied with `db push`. In production the statement errored with `25001: CREATE INDEX CONCURRENTLY cannot run inside a transaction block`, so nothing from the file was applied.',
            'Plan:',
            code('sh', 'pnpm prisma migrate resolve --rolled-back 20260210_booking_idx\n# split the file: the column in one migration, the concurrent index alone in the next\npnpm prisma migrate deploy'),
            "Marking it rolled back is correct because the transaction was rolled back — no column, no index exists. I'll split the file into `20260210_booking_column` and `20260210_booking_idx_concurrent` (the latter with a single statement, which Prisma runs outside a transaction).",
          ),
          undefined,
          'tp-migrate',
        ),
        u('go ahead'),
        a('', [bash('pnpm prisma migrate resolve --rolled-back 20260210_booking_idx && pnpm prisma migrate deploy', 'Migration 20260210_booking_idx marked as rolled back.\n\n2 migrations found in prisma/migrations\nApplying migration `20260210_booking_column`\nApplying migration `20260210_booking_idx_concurrent`\nAll migrations have been successfully applied.')]),
        a('Production is migrated. Deploy can be retried from the pipeline.'),
        u("nice. while you're here, the throttle: set ordinary api keys to 120 requests a minute, that's what the pricing page promises", 'tp-limit'),
        a('Set `DEFAULT_RPM = 120` in `src/middleware/limits.ts`; `limitFor()` returns it for every key without an override.', [edit('src/middleware/limits.ts', 'export const DEFAULT_RPM = 60;', 'export const DEFAULT_RPM = 120;')]),
        u('ok'),
      ],
    },
    {
      day: 29,
      hour: 16,
      branch: 'infra/pgbouncer',
      steps: [
        u("we're putting pgbouncer in front of the staging db (ops set it up on the same host). update the env and whatever prisma needs"),
        a(
          para(
            'Prisma needs two things behind PgBouncer in transaction mode: the `pgbouncer=true` flag (it disables prepared statements, which transaction pooling breaks) and a small `connection_limit`, since the pooler does the pooling now. The port changes too: PgBouncer listens on 6432, Postgres itself stays on its old port for direct admin access.',
            code('sh', 'DATABASE_URL=postgres://tidepool@db-staging.internal:6432/tidepool?pgbouncer=true&connection_limit=5\nDIRECT_URL=postgres://tidepool@db-staging.internal:5433/tidepool'),
            '`DIRECT_URL` is what `prisma migrate` uses (migrations need a session, not a pooled transaction), so I added `directUrl = env("DIRECT_URL")` to the datasource in `prisma/schema.prisma`.',
          ),
          [edit('.env.staging', 'DATABASE_URL=postgres://tidepool@db-staging.internal:5433/tidepool', 'DATABASE_URL=postgres://tidepool@db-staging.internal:6432/tidepool?pgbouncer=true&connection_limit=5\nDIRECT_URL=postgres://tidepool@db-staging.internal:5433/tidepool')],
          'tp-pgbouncer',
        ),
        u('thanks. also partner keys need more headroom, the clinic software vendors batch their syncs. give partners 300 a minute, normal keys stay as they are', 'tp-partner'),
        a('Done: `PARTNER_RPM = 300` in `src/middleware/limits.ts`, used when the key has `tier: partner`; everyone else keeps the default.', [edit('src/middleware/limits.ts', 'export const DEFAULT_RPM = 120;', "export const DEFAULT_RPM = 120;\nexport const PARTNER_RPM = 300;")]),
        u('and the logs are unreadable in my terminal. keep JSON in prod but make dev pretty'),
        a(
          para(
            "In dev, `src/lib/log.ts` now uses pino's transport with pino-pretty when `NODE_ENV !== 'production'`; prod stays plain JSON lines for Loki:",
            code('ts', "export const log = pino({\n  level: process.env.LOG_LEVEL ?? 'info',\n  transport: process.env.NODE_ENV === 'production' ? undefined : { target: 'pino-pretty', options: { colorize: true } },\n});"),
          ),
          [bash('pnpm add -D pino-pretty', 'devDependencies:\n+ pino-pretty 13.0.0')],
          'tp-pretty',
        ),
        u("also pin node, someone on the team is on 18 and things break. 20.11"),
        a('Added `.nvmrc` with `20.11.1` and `"engines": { "node": ">=20.11 <21" }` in package.json; pnpm will refuse to install on 18 now.', [bash('echo 20.11.1 > .nvmrc', '')], 'tp-node'),
      ],
    },
    {
      day: 38,
      hour: 11,
      steps: [
        u('demo went great btw. next milestone: general availability on April 20. we need error tracking before that, set up sentry', 'tp-ga'),
        a(
          para(
            "Congrats on the demo! For Sentry I've added `@sentry/node` and initialise it first thing in `src/instrument.ts` (it has to load before anything else for the auto-instrumentation to patch http and prisma):",
            code('ts', "import * as Sentry from '@sentry/node';\n\nSentry.init({\n  dsn: process.env.SENTRY_DSN,\n  environment: process.env.APP_ENV,\n  tracesSampleRate: 0.2,\n});"),
            "The DSN is read from the `SENTRY_DSN` environment variable, so nothing secret lands in the repo. I set the traces sample rate to 0.2 — one request in five gets a performance trace, which stays well inside the free quota at our traffic. Errors themselves are always sent. `pnpm start` now runs `node --import ./dist/instrument.js dist/server.js`.",
            'Timeline-wise: GA on 20 April leaves about seven weeks; I would do the alert rules next week.',
          ),
          [bash('pnpm add @sentry/node', 'dependencies:\n+ @sentry/node 9.1.0')],
          'tp-sentry',
        ),
        u('perfect'),
      ],
    },
  ],
  questions: [
    { question: 'Why did the pre-production API keep running out of cache connections?', category: 'root-cause', evidence: ['tp-redis-root'], answer: 'The rate-limit middleware created and connected a new Redis client on every request and never closed it, so staging hit maxclients.', find: ['every single HTTP request opens a brand-new TCP connection'] },
    { question: 'Which module did we create so every request reuses one connection to the key-value store?', category: 'location', evidence: ['tp-redis-root', 'tp-redis-done'], answer: 'src/lib/redis.ts', find: ['src/lib/redis.ts'] },
    { question: 'What logging library did we settle on and what was wrong with the alternative?', category: 'decision', evidence: ['tp-logger'], answer: 'pino; winston took ~15% of request time under load in last year’s benchmark, and pino gives JSON lines Loki can parse.', find: ['pino', 'winston'] },
    { question: 'Through which port does the staging app reach its database now?', category: 'changed-value', evidence: ['tp-pgbouncer'], answer: '6432, through PgBouncer (with pgbouncer=true&connection_limit=5).', find: ['6432'] },
    { question: 'Before the connection pooler went in, what port was in the staging database URL?', category: 'changed-value', evidence: ['tp-env-old'], answer: '5433', find: ['5433'] },
    { question: 'Why did the scheduling specs go red intermittently in the pipeline?', category: 'root-cause', evidence: ['tp-tz-root'], answer: 'The test fixture used new Date(y, m, d) in local time; on runners in a US zone March 8 2026 (spring forward) has 23 hours, so a slot went missing.', find: ['spring forward'] },
    { question: 'How can I make that calendar flake happen on my own laptop?', category: 'command', evidence: ['tp-tz-repro'], answer: 'TZ=America/New_York pnpm vitest run src/booking', find: ['TZ=America/New_York pnpm vitest run src/booking'] },
    { question: 'What is my rule about how modules should expose functions?', category: 'preference', evidence: ['tp-named'], answer: 'Named exports only, never export default.', find: ['named exports'] },
    { question: 'Which dependency tool am I insisting on for installs?', category: 'preference', evidence: ['tp-pnpm'], answer: 'pnpm (not npm; pnpm@9.15.0 as packageManager).', find: ['pnpm'] },
    { question: 'When was the clinic customer supposed to see the rescheduling feature?', category: 'temporal', evidence: ['tp-demo'], answer: 'March 12, 2026 (Harbor Dental demo).', find: ['March 12'] },
    { question: 'How did we get the stuck production schema deploy moving again?', category: 'command', evidence: ['tp-migrate'], answer: 'pnpm prisma migrate resolve --rolled-back 20260210_booking_idx, split the file, then pnpm prisma migrate deploy.', find: ['migrate resolve --rolled-back 20260210_booking_idx'] },
    { question: 'Why could the new lookup index not be created during the release?', category: 'root-cause', evidence: ['tp-migrate'], answer: 'CREATE INDEX CONCURRENTLY cannot run inside a transaction block, and Prisma ran the multi-statement file in one transaction.', find: ['cannot run inside a transaction block'] },
    { question: 'How many calls per minute does a regular customer key get?', category: 'config-value', evidence: ['tp-limit'], answer: '120 requests per minute (DEFAULT_RPM).', find: ['120'] },
    { question: 'How much headroom did we grant the third-party integrators?', category: 'changed-value', evidence: ['tp-partner'], answer: '300 requests per minute for partner keys (PARTNER_RPM).', find: ['300'] },
    { question: 'Which runtime version did we lock the team to?', category: 'config-value', evidence: ['tp-node'], answer: 'Node 20.11.1 (.nvmrc, engines >=20.11 <21).', find: ['20.11'] },
    { question: 'When are we aiming to launch for everyone?', category: 'temporal', evidence: ['tp-ga'], answer: 'April 20 (general availability).', find: ['April 20'] },
    { question: 'What fraction of traffic gets sampled for latency tracing?', category: 'config-value', evidence: ['tp-sentry'], answer: '0.2 (one in five), tracesSampleRate.', find: ['0.2'] },
    { question: 'With the logger we chose, what makes its output human-readable on a dev machine?', category: 'multi-hop', evidence: ['tp-logger', 'tp-pretty'], answer: 'pino-pretty as a pino transport when NODE_ENV is not production.', find: ['pino-pretty'] },
  ],
};
