// Scenario: loomctl, a Go job scheduler with a gRPC API (Dana). A deadlock, sqlc over an ORM,
// a message-size limit raised and later lowered, a data race, an API freeze date.
import { a, bash, code, edit, grep, para, read, u, type Project } from './script.js';

const NOTIFY = `func (s *Scheduler) notify(j *Job) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j.State = StateQueued
	s.events <- Event{Job: j.ID, State: j.State}
}`;

export const loomctl: Project = {
  id: 'loomctl',
  person: 'Dana',
  cwd: '/home/dana/go/src/github.com/loomworks/loomctl',
  start: '2026-07-06',
  routine: {
    files: [
      { path: 'internal/scheduler/scheduler.go', body: NOTIFY },
      { path: 'internal/api/jobs.go', body: 'func (s *JobsServer) GetJob(ctx context.Context, req *pb.GetJobRequest) (*pb.Job, error) {\n\tj, err := s.q.GetJob(ctx, req.GetId())\n\tif errors.Is(err, pgx.ErrNoRows) {\n\t\treturn nil, status.Error(codes.NotFound, "job not found")\n\t}\n\treturn toProto(j), err\n}' },
      { path: 'internal/cache/lru.go', body: 'type LRU struct {\n\tmu    sync.Mutex\n\titems map[string]*list.Element\n\torder *list.List\n\tcap   int\n}' },
      { path: 'cmd/loomctl/main.go', body: 'func main() {\n\tif err := rootCmd().ExecuteContext(signalContext()); err != nil {\n\t\tos.Exit(1)\n\t}\n}' },
    ],
    testCommand: 'go test ./...',
    testPass: 'ok  \tgithub.com/loomworks/loomctl/internal/api\t0.912s\nok  \tgithub.com/loomworks/loomctl/internal/cache\t0.104s\nok  \tgithub.com/loomworks/loomctl/internal/scheduler\t1.377s\n?   \tgithub.com/loomworks/loomctl/cmd/loomctl\t[no test files]',
    testFail: [
      {
        output: '--- FAIL: TestGetJob/missing_job (0.00s)\n    jobs_test.go:58: got code Unknown, want NotFound\nFAIL\nFAIL\tgithub.com/loomworks/loomctl/internal/api\t0.874s',
        fix: 'The query layer wraps `pgx.ErrNoRows` now, so the equality check missed it; `errors.Is` unwraps and `GetJob` returns NotFound again.',
        file: 'internal/api/jobs.go',
        before: '\tif errors.Is(err, pgx.ErrNoRows) {',
        after: '\tif errors.Is(err, sql.ErrNoRows) || errors.Is(err, pgx.ErrNoRows) {',
      },
      {
        output: "--- FAIL: TestLRU/evicts_oldest (0.00s)\n    lru_test.go:33: Get(\"a\") = 1, true; want 0, false after 3 inserts into cap 2\nFAIL\nFAIL\tgithub.com/loomworks/loomctl/internal/cache\t0.098s",
        fix: 'Eviction removed the element from the list but not from the map; both are removed together now.',
        file: 'internal/cache/lru.go',
        before: '\tcap   int',
        after: '\tcap   int // items and order always change together',
      },
    ],
    lint: { command: 'golangci-lint run ./...', output: 'internal/api/jobs.go:21:2: error returned from external package is unwrapped: sig: func (*github.com/jackc/pgx/v5.Conn).Ping(ctx context.Context) error (wrapcheck)\ncmd/loomctl/main.go:9:1: exitAfterDefer: os.Exit will exit, and `defer stop()` will not run (gocritic)' },
    chores: ['regenerate the protobuf code after the field rename', 'bump pgx to v5.7', 'add a make target for sqlc generate', 'update the CONTRIBUTING section on migrations'],
  },
  sessions: [
    {
      day: 0,
      hour: 16,
      branch: 'fix/hang',
      steps: [
        u('loomd stops scheduling anything after a while. process is alive, cpu at 0, api still answers health checks. stuck somewhere', 'lm-hang'),
        a("Let me grab the goroutine stacks from the pprof endpoint.", [bash("curl -s 'localhost:6060/debug/pprof/goroutine?debug=2' | grep -B2 -A8 'notify\\|drainEvents' | head -30", 'goroutine 57 [chan send, 12 minutes]:\ngithub.com/loomworks/loomctl/internal/scheduler.(*Scheduler).notify(0xc0001b2000, 0xc00039a0f0)\n\tinternal/scheduler/scheduler.go:88 +0x9c\n\ngoroutine 23 [sync.Mutex.Lock, 12 minutes]:\nsync.(*Mutex).Lock(...)\ngithub.com/loomworks/loomctl/internal/scheduler.(*Scheduler).drainEvents(0xc0001b2000)\n\tinternal/scheduler/events.go:31 +0x45')], 'lm-pprof'),
        a('', [read('internal/scheduler/scheduler.go', NOTIFY)]),
        a(
          para(
            "Classic lock-while-sending deadlock. From the dump:",
            "- goroutine 57 is in `notify`, blocked on `s.events <- Event{…}` for 12 minutes — **while holding `s.mu`** (the `defer s.mu.Unlock()` only runs after the send);\n- goroutine 23 is `drainEvents`, the only reader of `s.events`, and it is blocked in `s.mu.Lock()` because it reads the job table before handling each event.",
            "`s.events` is unbuffered, so the send waits for the reader; the reader waits for the lock; the lock is held by the sender. Nothing else ever runs. It only happens when an event arrives while `drainEvents` is between two events and about to lock, which is why it takes a while.",
            "Fix: never send on a channel while holding the mutex. Update state under the lock, copy what the event needs, unlock, then send. And give the channel a buffer so a burst does not stall schedulers:",
            code('go', 'func (s *Scheduler) notify(j *Job) {\n\ts.mu.Lock()\n\tj.State = StateQueued\n\tev := Event{Job: j.ID, State: j.State}\n\ts.mu.Unlock()\n\ts.events <- ev\n}\n\n// in New():\ns.events = make(chan Event, 64)'),
            "I'd also add a test that runs notify and drainEvents concurrently 10k times under `-race` with a timeout, which hangs reliably on the old code.",
          ),
          [edit('internal/scheduler/scheduler.go', '\ts.mu.Lock()\n\tdefer s.mu.Unlock()\n\tj.State = StateQueued\n\ts.events <- Event{Job: j.ID, State: j.State}', '\ts.mu.Lock()\n\tj.State = StateQueued\n\tev := Event{Job: j.ID, State: j.State}\n\ts.mu.Unlock()\n\ts.events <- ev')],
          'lm-deadlock',
        ),
        u('makes sense, do it'),
        a('', [bash('go test -run TestNotifyDrainConcurrent -count=1 ./internal/scheduler/', 'ok  \tgithub.com/loomworks/loomctl/internal/scheduler\t2.114s')]),
        a('The new test passes in 2 s (on the old code it hits the 10 s timeout every run).'),
      ],
    },
    {
      day: 7,
      hour: 10,
      branch: 'db-layer',
      steps: [
        u("time to add postgres. I don't want gorm again. last project its Preload gave us N+1s nobody saw until prod, and I couldn't tell what SQL ran. I want to write SQL and have it checked at compile time. sqlc?", 'lm-sqlc'),
        a(
          para(
            "sqlc fits that exactly: you write queries in `.sql` files, `sqlc generate` checks them against the schema and generates typed Go functions. A typo in a column fails at generate time, not in production, and the SQL that runs is the SQL you wrote.",
            "Layout:",
            code('text', 'db/\n  migrations/      # goose migrations, 0001_jobs.sql, …\n  queries/jobs.sql\n  sqlc.yaml\ninternal/store/   # generated package (do not edit)'),
            "sqlc reads the schema from the migrations folder, so there is one source of truth. For migrations I'd use goose — plain SQL files with `-- +goose Up/Down`, runnable from the binary at startup (`goose.Up(db, \"db/migrations\")`) or from the CLI.",
            "The connection string comes from the `LOOM_DB_DSN` environment variable; nothing in the config file.",
          ),
          [sqlcConfigEdit()],
          'lm-sqlc-setup',
        ),
        u('ok. also bump go.mod to 1.22, I want the new loop variable semantics'),
        a('Set `go 1.22` in go.mod (per-iteration loop variables, range over ints). CI uses `go-version-file: go.mod`, so it follows.', [edit('go.mod', 'go 1.21', 'go 1.22')], 'lm-go'),
        u("and for tests: table-driven with t.Run subtests, stdlib testing only. no testify, I don't want an assertion DSL", 'lm-tests'),
        a('Will do — the store tests are table-driven, with `t.Run(tc.name, …)` and plain `if got != want { t.Errorf(…) }`.'),
      ],
    },
    {
      day: 15,
      hour: 13,
      steps: [
        u('ListJobs fails for the acme tenant from the cli: "rpc error: code = ResourceExhausted desc = grpc: received message larger than max (5242880 vs. 4194304)"'),
        a(
          para(
            "gRPC caps a received message at 4 MiB by default (4194304 bytes), and acme has enough jobs that the full `ListJobsResponse` is 5 MiB. The limit applies on the receiving side, here the CLI.",
            "Quick fix: raise the limit on both ends to 16 MiB:",
            code('go', '// server\ngrpc.NewServer(grpc.MaxRecvMsgSize(16<<20), grpc.MaxSendMsgSize(16<<20))\n// client\ngrpc.NewClient(addr, grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(16<<20)))'),
            "The proper fix is pagination or streaming — a tenant with 10× the jobs will hit 16 MiB too. I'd do that before the API freeze.",
            "While I was in the server setup: the gRPC listener is on 7443 and the Prometheus metrics on 9464, as in `deploy/loomd.yaml`.",
          ),
          [edit('internal/api/server.go', 'grpc.NewServer(', 'grpc.NewServer(grpc.MaxRecvMsgSize(16<<20), grpc.MaxSendMsgSize(16<<20), ')],
          'lm-msgsize',
        ),
        u('ok for now'),
      ],
    },
    {
      day: 22,
      hour: 9,
      branch: 'race',
      steps: [
        u('run the race detector over internal, I have a feeling about the cache'),
        a('', [bash('go test -race ./internal/...', "==================\nWARNING: DATA RACE\nWrite at 0x00c0000a4060 by goroutine 31:\n  container/list.(*List).MoveToFront()\n  github.com/loomworks/loomctl/internal/cache.(*LRU).Get()\n      internal/cache/lru.go:41 +0x118\nPrevious write at 0x00c0000a4060 by goroutine 30:\n  github.com/loomworks/loomctl/internal/cache.(*LRU).Get()\n      internal/cache/lru.go:41 +0x118\n==================\nFAIL\tgithub.com/loomworks/loomctl/internal/cache\t0.311s", { error: true })], 'lm-race-cmd'),
        a(
          para(
            "Your feeling was right. `LRU.Get` takes `mu.RLock()` — it looks like a read — but it calls `order.MoveToFront(el)` to record the access, which **writes** the linked list. Two concurrent Gets both hold the read lock and both rewrite the list pointers: a data race, and in practice a corrupted list (we saw one 'impossible' nil deref in July that this explains).",
            "An LRU's Get is a write. Use the exclusive lock:",
            code('go', 'func (c *LRU) Get(key string) (Value, bool) {\n\tc.mu.Lock()\n\tdefer c.mu.Unlock()\n\tel, ok := c.items[key]\n\tif !ok {\n\t\treturn Value{}, false\n\t}\n\tc.order.MoveToFront(el)\n\treturn el.Value.(*entry).v, true\n}'),
            "and `mu` becomes a plain `sync.Mutex`. The cache is tiny and Get is microseconds, so the lost read parallelism does not matter.",
          ),
          [edit('internal/cache/lru.go', '\tmu    sync.RWMutex', '\tmu    sync.Mutex')],
          'lm-race',
        ),
        u("thanks. fyi we freeze the public API on July 31, the partner integration starts August 3. anything breaking has to land before", 'lm-freeze'),
        a('Understood. Then ListJobs pagination/streaming should land this week; it changes the RPC shape.'),
      ],
    },
    {
      day: 33,
      hour: 11,
      branch: 'stream-jobs',
      steps: [
        u('ListJobs streaming is merged. can we bring the message limit back down?'),
        a(
          para(
            "Yes. With `ListJobs` as a server-streaming RPC, each message carries one page of at most 500 jobs (~60 KB), so nothing comes close to the old limit. I set it to 8 MiB on both sides — still double the gRPC default, because `GetJob` with a full log tail can reach 3–4 MiB.",
            code('go', 'grpc.NewServer(grpc.MaxRecvMsgSize(8<<20), grpc.MaxSendMsgSize(8<<20))'),
          ),
          [edit('internal/api/server.go', 'grpc.MaxRecvMsgSize(16<<20), grpc.MaxSendMsgSize(16<<20)', 'grpc.MaxRecvMsgSize(8<<20), grpc.MaxSendMsgSize(8<<20)')],
          'lm-msgsize-8',
        ),
        u('where does the cli read its config from again? a partner asked'),
        a('', [grep('config.yaml', "cmd/loomctl/config.go:14:\tsystemConfig = \"/etc/loomctl/config.yaml\"\ncmd/loomctl/config.go:15:\tuserConfig   = filepath.Join(xdg.ConfigHome, \"loomctl\", \"config.yaml\")")]),
        a('The CLI reads `/etc/loomctl/config.yaml` first, then `~/.config/loomctl/config.yaml` (XDG config home), whose values win; flags override both.', undefined, 'lm-config'),
        u('and how do I build a release locally to test the archives before tagging?'),
        a('With goreleaser in snapshot mode — it builds every target into `dist/` without publishing or needing a tag:', [bash('goreleaser release --snapshot --clean', '  • starting release...\n  • building binaries\n    • building  binary=dist/loomctl_linux_amd64_v1/loomctl\n    • building  binary=dist/loomctl_darwin_arm64/loomctl\n  • archives\n  • release succeeded after 48s')], 'lm-release'),
      ],
    },
  ],
  questions: [
    { question: 'Why did the daemon silently stop dispatching work while staying up?', category: 'root-cause', evidence: ['lm-deadlock'], answer: 'notify sent on an unbuffered channel while holding s.mu, and the only reader (drainEvents) was waiting for s.mu: deadlock.', find: ['while holding `s.mu`'] },
    { question: 'How did we capture the stack of every thread in the running daemon?', category: 'command', evidence: ['lm-pprof'], answer: "curl 'localhost:6060/debug/pprof/goroutine?debug=2'", find: ['debug/pprof/goroutine?debug=2'] },
    { question: 'Why did we choose code generation from SQL over an object mapper?', category: 'decision', evidence: ['lm-sqlc', 'lm-sqlc-setup'], answer: 'sqlc: SQL checked at compile/generate time; gorm hid the SQL and its Preload caused unseen N+1s in the last project.', find: ['Preload'] },
    { question: 'Where do schema changes live, and which tool applies them?', category: 'location', evidence: ['lm-sqlc-setup'], answer: 'db/migrations/, applied with goose.', find: ['db/migrations'] },
    { question: 'Which language version does the module declare, and why that one?', category: 'config-value', evidence: ['lm-go'], answer: 'go 1.22, for per-iteration loop variables (and range over ints).', find: ['go 1.22'] },
    { question: 'How should unit tests be written in this codebase?', category: 'preference', evidence: ['lm-tests'], answer: 'Table-driven with t.Run subtests, standard library testing only, no testify.', find: ['no testify'] },
    { question: 'Why could the acme customer not list their work items?', category: 'root-cause', evidence: ['lm-msgsize'], answer: 'The 5 MiB ListJobs response exceeded the 4 MiB default receive limit in gRPC.', find: ['4 MiB'] },
    { question: 'What is the per-message size ceiling on the API today?', category: 'changed-value', evidence: ['lm-msgsize-8'], answer: '8 MiB (was 16 MiB).', find: ['8 MiB'] },
    { question: 'What did we first bump the payload limit to?', category: 'changed-value', evidence: ['lm-msgsize'], answer: '16 MiB.', find: ['16 MiB'] },
    { question: 'On which ports do the RPC listener and the scrape endpoint sit?', category: 'config-value', evidence: ['lm-msgsize'], answer: 'gRPC on 7443, Prometheus metrics on 9464.', find: ['7443', '9464'] },
    { question: 'What did I run to catch unsynchronised memory access in the internal packages?', category: 'command', evidence: ['lm-race-cmd'], answer: 'go test -race ./internal/...', find: ['go test -race ./internal/...'] },
    { question: 'Why was the shared-lock version of the lookup unsafe?', category: 'root-cause', evidence: ['lm-race'], answer: 'Get held only RLock but MoveToFront writes the list; concurrent Gets mutated it. Switched to sync.Mutex.', find: ['MoveToFront'] },
    { question: 'Which variable do we export to point the server at its database?', category: 'config-value', evidence: ['lm-sqlc-setup'], answer: 'LOOM_DB_DSN', find: ['LOOM_DB_DSN'] },
    { question: 'By what date must breaking interface changes be merged?', category: 'temporal', evidence: ['lm-freeze'], answer: 'July 31 (partner integration starts August 3).', find: ['July 31'] },
    { question: 'Which files does the command-line tool read its settings from, and which wins?', category: 'location', evidence: ['lm-config'], answer: '/etc/loomctl/config.yaml, then ~/.config/loomctl/config.yaml (user wins); flags override both.', find: ['/etc/loomctl/config.yaml'] },
    { question: 'What change made it safe to shrink the payload ceiling again?', category: 'multi-hop', evidence: ['lm-msgsize', 'lm-msgsize-8'], answer: 'ListJobs became server-streaming with pages of ≤500 jobs (~60 KB), so the 16 MiB stopgap could drop to 8 MiB.', find: ['server-streaming'] },
    { question: 'How do I produce the distributable archives locally without publishing?', category: 'command', evidence: ['lm-release'], answer: 'goreleaser release --snapshot --clean', find: ['goreleaser release --snapshot --clean'] },
    { question: 'When did the scheduler hang first get reported?', category: 'temporal', evidence: ['lm-hang'], answer: 'July 6, 2026.', find: ['stops scheduling anything'] },
  ],
};

function sqlcConfigEdit() {
  const path = 'db/sqlc.yaml';
  return edit(path, 'version: "2"', 'version: "2"\nsql:\n  - engine: postgresql\n    schema: db/migrations\n    queries: db/queries\n    gen: { go: { package: store, out: internal/store, sql_package: pgx/v5 } }');
}
