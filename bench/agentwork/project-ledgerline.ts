// Scenario: ledgerline, a nightly card-transaction pipeline on DuckDB (Sam). Engine choice,
// double-counted rows from mixed time zones, lake layout, a schedule and memory limit changed
// later, a quarter-close deadline.
import { a, bash, code, edit, para, read, u, type Project } from './script.js';

export const ledgerline: Project = {
  id: 'ledgerline',
  person: 'Sam',
  cwd: '/home/sam/pipelines/ledgerline',
  start: '2026-06-01',
  routine: {
    files: [
      { path: 'sql/revenue.sql', body: "CREATE OR REPLACE TABLE revenue AS\nSELECT date_trunc('month', booked_at) AS month, merchant_id, sum(amount_minor) / 100.0 AS revenue\nFROM txns_clean\nGROUP BY ALL;" },
      { path: 'ledgerline/cli.py', body: '@app.command()\ndef run(date: str = typer.Option(None), only: list[str] = typer.Option(None)):\n    con = connect()\n    for step in plan(only):\n        step.execute(con, date)' },
      { path: 'sql/txns_clean.sql', body: "CREATE OR REPLACE TABLE txns_clean AS\nSELECT * EXCLUDE (raw_payload)\nFROM txns_raw\nWHERE status = 'settled';" },
      { path: 'ledgerline/checks.py', body: 'def row_count_check(con, table: str, tolerance: float = 0.05) -> None:\n    today, avg = con.execute(ROW_COUNT_SQL, [table]).fetchone()\n    if abs(today - avg) / avg > tolerance:\n        raise RowCountDrift(table, today, avg)' },
    ],
    testCommand: 'uv run pytest -q',
    testPass: '..............................                                   [100%]\n30 passed in 4.77s',
    testFail: [
      {
        output: "FAILED tests/test_revenue.py::test_refunds_are_negative - AssertionError: assert 1240.5 == 1180.5\n1 failed, 29 passed in 4.91s",
        fix: 'Refunds were filtered out with the unsettled rows; `txns_clean.sql` now keeps `refunded` alongside `settled`, so revenue nets them.',
        file: 'sql/txns_clean.sql',
        before: "WHERE status = 'settled';",
        after: "WHERE status IN ('settled', 'refunded');",
      },
      {
        output: "FAILED tests/test_cli.py::test_only_accepts_known_steps - typer.BadParameter not raised\n1 failed, 29 passed in 4.80s",
        fix: '`--only` silently ignored unknown step names; `plan()` rejects them now with the list of valid steps.',
        file: 'ledgerline/cli.py',
        before: '    for step in plan(only):',
        after: '    for step in plan(only, strict=True):',
      },
    ],
    lint: { command: 'uv run ruff check . && uv run sqlfluff lint sql/', output: 'ledgerline/cli.py:1:8: F401 `os` imported but unused\n== [sql/revenue.sql] FAIL\nL:   2 | P:  60 | AM04 | Query produces an unknown number of result columns.' },
    chores: ['bump duckdb to the latest patch release', 'add the new merchant category codes file', 'write the runbook entry for a failed nightly run', 'drop the old csv export step'],
  },
  sessions: [
    {
      day: 0,
      hour: 11,
      steps: [
        u('the pandas job died again last night. OOM killed. the box has 6 GB and the card file is ~180M rows now'),
        a('', [bash('grep -i "killed process" /var/log/kern.log | tail -1', 'kernel: Out of memory: Killed process 30412 (python) total-vm:15232140kB, anon-rss:14011568kB')]),
        a(
          para(
            "It peaked at 14 GB resident on a 6 GB machine. pandas loads the whole CSV into memory (and the merge makes a second copy), so this only gets worse as volume grows.",
            "I'd move the transforms to DuckDB. It runs the same SQL-shaped logic out of core: it streams the file, keeps hash tables within a memory limit, and spills to disk when it has to. The merge and group-bys we do are exactly what it is good at, and it reads CSV and writes Parquet natively.",
            code('python', "con = duckdb.connect('ledgerline.duckdb')\ncon.execute(\"SET memory_limit = '4GB'\")\ncon.execute(\"SET temp_directory = '/mnt/scratch/duck'\")\ncon.execute(\"CREATE OR REPLACE TABLE txns_raw AS SELECT * FROM read_csv('in/cards_*.csv', header = true)\")"),
            "4GB leaves the rest of the box for the OS and the upload step; spill files go to `/mnt/scratch/duck` on the scratch disk, not the root volume. On a copy of last night's file this finished in 7 minutes with 3.6 GB peak RSS, where pandas needed 40 minutes before it died.",
          ),
          undefined,
          'll-duckdb',
        ),
        u('convinced, go with duckdb', 'll-duckdb-yes'),
        a('Ported `transform.py` to SQL files executed by DuckDB. The pandas dependency is gone from the nightly path.'),
      ],
    },
    {
      day: 6,
      hour: 15,
      branch: 'fix/dupes',
      steps: [
        u("finance says May revenue is 4% too high. I bet we double count something"),
        a('', [bash("uv run duckdb ledgerline.duckdb -c \"SELECT txn_id, booked_at, source FROM txns_merged WHERE txn_id IN (SELECT txn_id FROM txns_merged GROUP BY 1 HAVING count(*) > 1) ORDER BY 1, 2 LIMIT 4\"", '│ TX-88121 │ 2026-05-14 08:12:00 │ processor │\n│ TX-88121 │ 2026-05-14 09:12:00 │ bank      │\n│ TX-88140 │ 2026-05-14 08:30:41 │ processor │\n│ TX-88140 │ 2026-05-14 09:30:41 │ bank      │', { key: 'll-dupe-rows' })]),
        a(
          para(
            "Confirmed: the same transactions appear twice, always exactly one hour apart, one row from each feed (TX-88121 at 08:12 and 09:12).",
            "Root cause: the processor feed has UTC timestamps, but the bank feed writes **naive local times** (Europe/London) without an offset. In May, London is on BST (UTC+1), so the same payment is 08:12 in one feed and 09:12 in the other. Our merge deduplicated on `(txn_id, booked_at)`, so these pairs did not match and both survived. In winter the two clocks agree, which is why the January–March numbers were right.",
            "Fix in `sql/txns_merged.sql`: convert the bank feed to UTC when reading it, and deduplicate on `txn_id` alone, keeping the processor row:",
            code('sql', "WITH bank AS (\n  SELECT txn_id, timezone('UTC', timezone('Europe/London', booked_at)) AS booked_at, amount_minor, 'bank' AS source\n  FROM bank_raw\n)\nSELECT * FROM (SELECT * FROM processor UNION ALL SELECT * FROM bank)\nQUALIFY row_number() OVER (PARTITION BY txn_id ORDER BY source = 'processor' DESC) = 1;"),
            "After the fix May revenue drops by 4.1%, which matches the difference finance saw.",
          ),
          undefined,
          'll-dupes',
        ),
        u('great work'),
      ],
    },
    {
      day: 13,
      hour: 10,
      branch: 'lake',
      steps: [
        u('write the curated tables to the lake as parquet, finance wants to query them with athena'),
        a(
          para(
            'Output goes to `s3://ledgerline-lake/curated/revenue/`, Hive-partitioned by month so Athena can prune (`month=2026-05/…`):',
            code('sql', "COPY revenue TO 's3://ledgerline-lake/curated/revenue' (FORMAT parquet, PARTITION_BY (month), COMPRESSION zstd, ROW_GROUP_SIZE 1000000, OVERWRITE_OR_IGNORE);"),
            "Row groups of one million rows instead of DuckDB's default 122,880: Athena reads per row group, and larger groups mean fewer S3 requests and better zstd ratios. A month is ~6M rows, so six row groups per file.",
          ),
          undefined,
          'll-lake',
        ),
        u("and schedule it. the processor drops the file at 01:45 UTC, so run at 02:30", 'll-cron-old'),
        a('Added the cron entry on the box:', [bash('crontab -l | tail -1', '30 2 * * * cd /home/sam/pipelines/ledgerline && uv run ledgerline run >> logs/nightly.log 2>&1')]),
        u("btw I saw you put a big SQL string inside the python file. keep SQL in .sql files please, they get linted and diffed properly. and don't touch pip, we use uv for environments", 'll-prefs'),
        a('Moved the query to `sql/export_revenue.sql`, loaded by name from `ledgerline/sql.py`. And yes — everything runs through `uv run`; the lock file is `uv.lock`.'),
      ],
    },
    {
      day: 24,
      hour: 8,
      steps: [
        u("processor changed their SLA, file now lands at 03:30 UTC. last night's run found nothing. move the schedule to 04:15. also the box got upgraded to 16 GB, let duckdb use more", 'll-cron-new'),
        a(
          para(
            'Updated both:',
            code('sh', '15 4 * * * cd /home/sam/pipelines/ledgerline && uv run ledgerline run >> logs/nightly.log 2>&1'),
            code('python', "con.execute(\"SET memory_limit = '10GB'\")"),
            "10GB of the 16: the upload step and page cache keep the rest. Yesterday's run found no input file and exited early (the check worked), so yesterday's data is missing. I'll backfill it.",
          ),
          [edit('ledgerline/db.py', "SET memory_limit = '4GB'", "SET memory_limit = '10GB'")],
          'll-mem',
        ),
        a('', [bash('uv run ledgerline backfill --from 2026-06-24 --to 2026-06-24', 'backfill 2026-06-24: txns_raw 6,120,553 rows · txns_clean 6,088,210 · revenue 41,902 · exported 1 partition\ndone in 6m41s')]),
        u('how would I rerun just revenue for all of may if I need to?'),
        a(
          para(
            'Same command with a range and `--only`:',
            code('sh', 'uv run ledgerline backfill --from 2026-05-01 --to 2026-05-31 --only revenue'),
            '`--only` takes step names from `sql/` (without `.sql`); the upstream tables are read as they are, so rerun `txns_clean` first if the raw data changed.',
          ),
          undefined,
          'll-backfill',
        ),
      ],
    },
    {
      day: 31,
      hour: 14,
      steps: [
        u("quarter close: finance needs the Q2 numbers final by July 7, board meeting is on the 9th. reading June raw is super slow though", 'll-close'),
        a('', [bash("aws s3 ls s3://ledgerline-lake/raw/2026/06/ --recursive | wc -l", '40218')]),
        a(
          para(
            "June's raw data is 40,218 objects — the processor started sending one small file per merchant batch. Reading `raw/2026/06/*/*.parquet` spends most of its time listing S3 and opening files, not reading data (each file is ~40 KB).",
            "Compact them once into a few large files and read those:",
            code('sql', "COPY (SELECT * FROM read_parquet('s3://ledgerline-lake/raw/2026/06/*/*.parquet'))\nTO 's3://ledgerline-lake/compact/2026/06' (FORMAT parquet, ROW_GROUP_SIZE 1000000);"),
            "That took 9 minutes once; reading the compacted month takes 40 seconds instead of 25 minutes. I added a compaction step that runs at month end.",
          ),
          undefined,
          'll-small-files',
        ),
        u('and alert me if a nightly load looks off. row count jumps, that kind of thing'),
        a("`ledgerline/checks.py` compares each table's row count with its average over the last 7 runs and fails the run (and emails you through the existing SMTP hook) when it is off by more than 5%. Tolerance is a parameter per table if some are naturally spiky.", [edit('ledgerline/checks.py', 'tolerance: float = 0.1', 'tolerance: float = 0.05')], 'll-check'),
        u('perfect, thanks'),
      ],
    },
  ],
  questions: [
    { question: 'Why did we replace the dataframe-based transforms?', category: 'decision', evidence: ['ll-duckdb', 'll-duckdb-yes'], answer: 'pandas peaked at 14 GB on a 6 GB box with 180M rows; DuckDB runs out of core within a memory limit (7 min, 3.6 GB).', find: ['14 GB'] },
    { question: 'How much RAM may the embedded SQL engine use now?', category: 'changed-value', evidence: ['ll-mem'], answer: '10GB (of 16).', find: ["'10GB'"] },
    { question: 'What RAM ceiling did the engine have at first?', category: 'changed-value', evidence: ['ll-duckdb'], answer: '4GB.', find: ["'4GB'"] },
    { question: 'Where do overflow files go when a query exceeds its memory?', category: 'location', evidence: ['ll-duckdb'], answer: '/mnt/scratch/duck (temp_directory on the scratch disk).', find: ['/mnt/scratch/duck'] },
    { question: 'Why was May income overstated?', category: 'root-cause', evidence: ['ll-dupes'], answer: 'The bank feed had naive London-local times (BST, UTC+1) and the processor UTC; dedupe on (txn_id, booked_at) kept both copies one hour apart.', find: ['naive local times'] },
    { question: 'Which payment did we look at as the example of the duplicate pair?', category: 'config-value', evidence: ['ll-dupe-rows'], answer: 'TX-88121 (08:12 from the processor, 09:12 from the bank).', find: ['TX-88121'] },
    { question: 'How many records go in each chunk of the columnar output?', category: 'config-value', evidence: ['ll-lake'], answer: '1,000,000 rows per row group (default was 122,880).', find: ['ROW_GROUP_SIZE 1000000'] },
    { question: 'Where in object storage do the finished revenue tables go?', category: 'location', evidence: ['ll-lake'], answer: 's3://ledgerline-lake/curated/revenue/, partitioned by month.', find: ['s3://ledgerline-lake/curated/revenue'] },
    { question: 'At what time does the overnight load kick off now?', category: 'changed-value', evidence: ['ll-cron-new', 'll-mem'], answer: '04:15 UTC (was 02:30).', find: ['04:15'] },
    { question: 'Why was the overnight run first set for half past two?', category: 'changed-value', evidence: ['ll-cron-old'], answer: 'The processor dropped its file at 01:45 UTC.', find: ['01:45'] },
    { question: 'Where do I want the query text kept?', category: 'preference', evidence: ['ll-prefs'], answer: 'In .sql files (linted and diffed), not strings inside Python.', find: ['keep SQL in .sql files'] },
    { question: 'What do I use instead of pip to manage Python setups?', category: 'preference', evidence: ['ll-prefs'], answer: 'uv (uv run, uv.lock).', find: ['we use uv'] },
    { question: 'How do I rebuild only one table for a whole past month?', category: 'command', evidence: ['ll-backfill'], answer: 'uv run ledgerline backfill --from 2026-05-01 --to 2026-05-31 --only revenue', find: ['--only revenue'] },
    { question: 'When are the second-quarter figures due to accounting?', category: 'temporal', evidence: ['ll-close'], answer: 'July 7 (board meeting July 9).', find: ['July 7'] },
    { question: "Why did scanning June's incoming data take so long?", category: 'root-cause', evidence: ['ll-small-files'], answer: 'About 40k tiny (~40 KB) files: time went to S3 listing and opening; compacted into large files.', find: ['40,218'] },
    { question: 'How far off must a table size be before the nightly run fails?', category: 'config-value', evidence: ['ll-check'], answer: 'More than 5% from the average of the last 7 runs.', find: ['more than 5%'] },
    { question: 'How long after the upstream drop does our run start, before and after the SLA change?', category: 'multi-hop', evidence: ['ll-cron-old', 'll-cron-new'], answer: '45 minutes both times: 01:45 → 02:30, then 03:30 → 04:15.', find: ['01:45', '03:30'] },
    { question: 'When did we abandon the in-memory dataframe approach?', category: 'temporal', evidence: ['ll-duckdb-yes'], answer: 'June 1, 2026.', find: ['go with duckdb'] },
  ],
};
