// Scenario: quarry, a Rust CLI that packs log archives (Tomas). A borrow-checker error, the codec
// choice and its level changed later, a chunk-boundary panic, MSRV and CI, a release deadline.
import { a, bash, code, edit, para, read, u, type Project } from './script.js';

const PARSER = `pub struct Parser {
    buf: Vec<u8>,
    pos: usize,
}

impl Parser {
    pub fn next_line(&mut self) -> Option<&[u8]> {
        let rest = &self.buf[self.pos..];
        let end = memchr::memchr(b'\\n', rest)?;
        let line = &rest[..end];
        self.advance(end + 1);
        Some(line)
    }
}`;

export const quarry: Project = {
  id: 'quarry',
  person: 'Tomas',
  cwd: '/home/tomas/src/quarry',
  start: '2026-01-12',
  routine: {
    files: [
      { path: 'src/chunk.rs', body: 'pub const CHUNK: usize = 64 * 1024;\n\npub fn chunks(input: &[u8]) -> impl Iterator<Item = &[u8]> {\n    input.chunks(CHUNK)\n}' },
      { path: 'src/cli.rs', body: '#[derive(clap::Parser)]\npub enum Cmd {\n    Pack { input: PathBuf, #[arg(short, long)] out: Option<PathBuf> },\n    Unpack { input: PathBuf },\n    Stat { input: PathBuf },\n}' },
      { path: 'src/frame.rs', body: 'pub struct FrameHeader {\n    pub magic: [u8; 4],\n    pub version: u8,\n    pub raw_len: u32,\n    pub packed_len: u32,\n}' },
      { path: 'src/parser.rs', body: PARSER },
    ],
    testCommand: 'cargo test',
    testPass: '   Compiling quarry v0.3.2 (/home/tomas/src/quarry)\n    Finished `test` profile [unoptimized + debuginfo] target(s) in 6.81s\n     Running unittests src/lib.rs\n\nrunning 31 tests\ntest result: ok. 31 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.42s',
    testFail: [
      {
        output: "running 31 tests\ntest frame::tests::header_roundtrip ... FAILED\n\nfailures:\n\n---- frame::tests::header_roundtrip stdout ----\nthread 'frame::tests::header_roundtrip' panicked at src/frame.rs:61:9:\nassertion `left == right` failed\n  left: [81, 82, 89, 1]\n right: [81, 82, 89, 2]\n\ntest result: FAILED. 30 passed; 1 failed",
        fix: 'The header test still expected format version 1; the writer emits version 2 since the checksum field was added, so the test now reads the version from `FORMAT_VERSION`.',
        file: 'src/frame.rs',
        before: '    pub version: u8,',
        after: '    pub version: u8, // FORMAT_VERSION',
      },
      {
        output: "error[E0308]: mismatched types\n  --> src/cli.rs:44:32\n   |\n44 |     let out = args.out.unwrap_or(default_out(&args.input));\n   |                                ^^^^^^^^^^^^^^^^^^^^^^^^ expected `PathBuf`, found `&Path`\n\nerror: could not compile `quarry` (lib test) due to 1 previous error",
        fix: '`default_out` returned a borrowed `&Path`; it returns an owned `PathBuf` now, which is what `unwrap_or` needs.',
        file: 'src/cli.rs',
        before: '    Pack { input: PathBuf, #[arg(short, long)] out: Option<PathBuf> },',
        after: '    Pack { input: PathBuf, #[arg(short, long)] out: Option<PathBuf> }, // out defaults to <input>.qry',
      },
    ],
    lint: { command: 'cargo clippy --all-targets -- -D warnings', output: "error: this `if` has identical blocks\n  --> src/frame.rs:33:9\n   |\n   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#if_same_then_else\nerror: could not compile `quarry` (lib) due to 1 previous error" },
    chores: ['update the README usage section for the stat command', 'bump clap to 4.5', 'add a CHANGELOG entry for the frame checksum', 'regenerate the shell completions'],
  },
  sessions: [
    {
      day: 0,
      hour: 19,
      branch: 'parser-rewrite',
      steps: [
        u("can't get the new line parser to compile, rustc is yelling at me. cargo build output is in the terminal, take a look"),
        a('', [bash('cargo build', "error[E0502]: cannot borrow `*self` as mutable because it is also borrowed as immutable\n  --> src/parser.rs:11:9\n   |\n9  |         let rest = &self.buf[self.pos..];\n   |                     -------- immutable borrow occurs here\n10 |         let end = memchr::memchr(b'\\n', rest)?;\n11 |         self.advance(end + 1);\n   |         ^^^^^^^^^^^^^^^^^^^^^ mutable borrow occurs here\n12 |         Some(line)\n   |         ---------- returning this value requires that `self.buf` is borrowed for `'_`", { error: true }), read('src/parser.rs', PARSER)]),
        a(
          para(
            "This is the classic one. `next_line` takes `&mut self` and returns `Option<&[u8]>` — a slice that borrows from `self.buf`. While that slice is alive (and it is, because we return it), the compiler cannot let `self.advance()` take `&mut self`, since advance could in principle reallocate `buf` and leave the returned slice dangling. Rust does not know `advance` only touches `pos`.",
            "Options, cheapest first:",
            "1. Compute positions first and only borrow at the end. Update `pos` with plain integer arithmetic, then slice:",
            code('rust', "pub fn next_line(&mut self) -> Option<&[u8]> {\n    let start = self.pos;\n    let end = start + memchr::memchr(b'\\n', &self.buf[start..])?;\n    self.pos = end + 1;\n    Some(&self.buf[start..end])\n}"),
            "The immutable borrow for `memchr` ends before the assignment, and the returned slice is created after the mutation, so the borrow checker is happy. No copy, no `unsafe`.",
            "2. Return `Range<usize>` and let the caller slice. Flexible, but every call site changes.",
            "3. Copy the line into an owned `Vec<u8>`. Simple, but it allocates per line, and we parse tens of millions of lines per archive.",
            "I'd go with (1): it keeps the API, costs nothing, and it is what `advance` was doing anyway (`advance` was just `self.pos += n`).",
          ),
          undefined,
          'qr-borrow',
        ),
        u('do 1'),
        a('', [edit('src/parser.rs', '        let rest = &self.buf[self.pos..];\n        let end = memchr::memchr(b\'\\n\', rest)?;\n        let line = &rest[..end];\n        self.advance(end + 1);\n        Some(line)', "        let start = self.pos;\n        let end = start + memchr::memchr(b'\\n', &self.buf[start..])?;\n        self.pos = end + 1;\n        Some(&self.buf[start..end])"), bash('cargo build', '   Compiling quarry v0.3.2 (/home/tomas/src/quarry)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 3.02s')]),
        a('Compiles. The parser returns slices without holding a borrow across the position update.'),
        u("good. now the codec question, I ran the comparison script on the 2 GB nginx sample last night, results are in bench/out/codecs.txt"),
        a('', [read('bench/out/codecs.txt', 'codec      ratio   pack MB/s   unpack MB/s\nlz4        2.1x    690         2400\nzstd-3     4.9x    210         980\nzstd-9     5.8x    38          1010\nbrotli-9   6.0x    9           410')]),
        u("so my take: zstd. lz4 is blazing but 2.1x is nowhere near good enough for logs we keep for a year, brotli packs at 9 MB/s which is a joke. level 9, ratio matters most for the archive tier", 'qr-codec'),
        a(
          para(
            "Agreed, zstd is the sweet spot. Wiring it in with the `zstd` crate (it binds libzstd; `zstd-safe` underneath, no unsafe in our code):",
            code('rust', 'pub const LEVEL: i32 = 9;\n\npub fn pack_chunk(raw: &[u8]) -> io::Result<Vec<u8>> {\n    zstd::bulk::compress(raw, LEVEL)\n}'),
            'Unpacking does not depend on the level, so archives written at 9 stay readable whatever we pick later.',
          ),
          [bash('cargo add zstd@0.13', '    Updating crates.io index\n      Adding zstd v0.13.2 to dependencies')],
        ),
        u('thanks'),
      ],
    },
    {
      day: 8,
      hour: 20,
      branch: 'fix/chunk-panic',
      steps: [
        u("ops reports a panic packing one particular file, the file is exactly 128 KiB. I can't share it but it should be reproducible"),
        a("Trying with a random file of the same size.", [bash('head -c 131072 /dev/urandom > /tmp/two-chunks.bin && cargo run --release -- pack /tmp/two-chunks.bin', "thread 'main' panicked at src/chunk.rs:88:21:\nrange end index 65537 out of range for slice of length 65536\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", { error: true })], 'qr-repro'),
        a('', [read('src/chunk.rs', 'pub const CHUNK: usize = 64 * 1024;\n\nfn split_at_newline(block: &[u8]) -> usize {\n    match memchr::memrchr(b\'\\n\', block) {\n        Some(i) => i + 1,\n        None => block.len(),\n    }\n}\n\n// ... line 88:\n        let cut = start + split_at_newline(&input[start..=start + CHUNK]);')]),
        a(
          para(
            "Reproduced with random bytes: any input whose length is an exact multiple of the 64 KiB chunk size panics on its last chunk.",
            "The bug is on line 88 of `src/chunk.rs`: the look-ahead slice uses an inclusive range, `input[start..=start + CHUNK]`. For every chunk except the last there is always at least one more byte, so the extra byte is harmless — it only lets `split_at_newline` see a newline that sits exactly on the boundary. On the final chunk of a file that is exactly N × 65536 bytes long, `start + CHUNK` equals `input.len()`, and `..=` asks for one byte past the end: `range end index 65537 out of range for slice of length 65536`. Files of other sizes never hit it because their last chunk is shorter and takes a different branch.",
            'Fix: clamp the end and use an exclusive range:',
            code('rust', 'let end = (start + CHUNK + 1).min(input.len());\nlet cut = start + split_at_newline(&input[start..end]);'),
            'And a regression test with inputs of exactly one, two and three chunks, plus one byte more and one byte less:',
            code('rust', '#[test]\nfn exact_multiples_of_the_chunk_size() {\n    for len in [CHUNK, 2 * CHUNK, 3 * CHUNK, 2 * CHUNK - 1, 2 * CHUNK + 1] {\n        let input = vec![b\'x\'; len];\n        assert_eq!(chunks(&input).map(|c| c.len()).sum::<usize>(), len);\n    }\n}'),
          ),
          [edit('src/chunk.rs', '        let cut = start + split_at_newline(&input[start..=start + CHUNK]);', '        let end = (start + CHUNK + 1).min(input.len());\n        let cut = start + split_at_newline(&input[start..end]);')],
          'qr-panic',
        ),
        u("great. btw I noticed in your other branch you had an unsafe get_unchecked in the hot loop. please no. this crate stays 100% safe, if we ever really need unsafe for speed it goes in its own small crate with miri running in CI", 'qr-unsafe'),
        a('Removed it — bounds checks there cost under 1% in the decode bench anyway. I added `#![forbid(unsafe_code)]` to `src/lib.rs` so it cannot creep back in.', [edit('src/lib.rs', '//! quarry: pack and unpack log archives.', '//! quarry: pack and unpack log archives.\n#![forbid(unsafe_code)]')]),
        u('ok'),
      ],
    },
    {
      day: 17,
      hour: 18,
      branch: 'ci',
      steps: [
        u("set up CI properly. clippy must fail the build on any warning. and we need to build on the debian boxes ops runs, they're on bookworm with the backports rustc"),
        a('', [bash('ssh ops-build-01 rustc --version', 'rustc 1.74.1 (a28077b28 2023-12-04) (built from a source tarball)')]),
        a(
          para(
            "The ops build hosts have rustc 1.74.1, so that's our floor. I declared it in `Cargo.toml` so cargo itself tells anyone on an older compiler, and CI tests both that version and stable:",
            code('toml', '[package]\nname = "quarry"\nversion = "0.3.2"\nedition = "2021"\nrust-version = "1.74"'),
            'The workflow lives in `.github/workflows/ci.yml`:',
            code('yaml', "jobs:\n  test:\n    strategy:\n      matrix:\n        rust: ['1.74', stable]\n    steps:\n      - uses: actions/checkout@v4\n      - uses: dtolnay/rust-toolchain@master\n        with: { toolchain: '${{ matrix.rust }}', components: clippy }\n      - run: cargo clippy --all-targets -- -D warnings\n      - run: cargo test --locked"),
            "`-D warnings` turns every clippy warning into an error, so a warning fails the job. One thing to watch: newer clippy versions add lints, so stable can go red without any change on our side; I think that's the behaviour you want.",
          ),
          [edit('Cargo.toml', 'edition = "2021"', 'edition = "2021"\nrust-version = "1.74"')],
          'qr-ci',
        ),
        u("yes that's fine. how do I keep a reference run of the decode bench so I can compare my branch against main?"),
        a(
          para(
            'Criterion does this with named baselines. On main:',
            code('sh', 'cargo bench --bench decode -- --save-baseline main'),
            'then on your branch:',
            code('sh', 'cargo bench --bench decode -- --baseline main'),
            'It prints the change per benchmark with a confidence interval, e.g. `decode/nginx-64k  time: [-4.1% -3.6% -3.0%] (p = 0.00 < 0.05) Performance has improved.` Baselines are kept in `target/criterion/`, so `cargo clean` deletes them.',
          ),
          undefined,
          'qr-baseline',
        ),
        u('thanks!'),
      ],
    },
    {
      day: 30,
      hour: 9,
      branch: 'level-6',
      steps: [
        u("the ingest box can't keep up. packing a day's logs takes longer than a day lol. let's rethink the level", 'qr-slow'),
        a('', [bash('for l in 3 6 9; do cargo run --release -- pack --level $l samples/day.log; done', 'level 3: 4.9x  210 MB/s\nlevel 6: 5.4x  112 MB/s\nlevel 9: 5.8x   38 MB/s')]),
        a(
          para(
            "Numbers on the full-day sample:",
            code('text', 'level 3: 4.9x  210 MB/s\nlevel 6: 5.4x  112 MB/s\nlevel 9: 5.8x   38 MB/s'),
            "Level 6 packs roughly three times faster than 9 (112 vs 38 MB/s) and gives up only 0.4 of ratio (5.4x against 5.8x) — about 7% more disk. Level 3 doubles speed again but drops to 4.9x, which starts to hurt over a year of retention. I'd move to 6: at 112 MB/s a day of logs (about 2.3 TB) packs in under six hours on that box.",
          ),
          undefined,
          'qr-level-6',
        ),
        u('agreed, go with 6 from now on. and let\'s cut 0.4.0 by February 20, ops wants to roll it out before the retention policy change on march 1', 'qr-go6'),
        a('Changed `LEVEL` to 6 in `src/codec.rs` and added a `--level` flag that defaults to it. Old archives stay readable. I will plan the 0.4.0 release for the week of the 16th so there is slack before the 20th.', [edit('src/codec.rs', 'pub const LEVEL: i32 = 9;', 'pub const LEVEL: i32 = 6;')]),
      ],
    },
    {
      day: 37,
      hour: 17,
      branch: 'release-0.4',
      steps: [
        u('prep the crates.io publish'),
        a('', [bash('cargo publish --dry-run', 'error: failed to verify manifest at `/home/tomas/src/quarry/Cargo.toml`\n\nCaused by:\n  missing field `license` or `license-file`', { error: true })]),
        a('crates.io requires a license. Which one do you want? The Rust ecosystem default is the dual `MIT OR Apache-2.0`.'),
        u('dual MIT/Apache like everyone else, fine', 'qr-license'),
        a('Added `license = "MIT OR Apache-2.0"` plus `LICENSE-MIT` and `LICENSE-APACHE`; the dry run passes now.', [bash('cargo publish --dry-run', '   Packaging quarry v0.4.0 (/home/tomas/src/quarry)\n   Verifying quarry v0.4.0\n    Finished `release` profile [optimized] target(s) in 21.4s\n   Uploading quarry v0.4.0\nwarning: aborting upload due to dry run')]),
        u('also, nginx logs compress a lot better with a trained dictionary, I read. try it'),
        a(
          para(
            "Trained one on 2,000 sample files from yesterday's nginx access logs:",
            code('sh', 'zstd --train samples/nginx/*.log --maxdict=112640 -o assets/dicts/nginx.zdict'),
            "That gives a 110 KiB dictionary, now at `assets/dicts/nginx.zdict`, embedded into the binary with `include_bytes!` and selected with `--dict nginx`. On 64 KiB chunks it lifts the ratio from 5.4x to 7.9x at the same level 6, because small chunks are exactly where a dictionary helps: the compressor does not have to rediscover the log format in every chunk.",
            "The frame header records a dictionary id, so `unpack` picks the right one automatically; an archive packed with a dictionary cannot be read by 0.3.x, which is worth a line in the CHANGELOG.",
          ),
          [bash('zstd --train samples/nginx/*.log --maxdict=112640 -o assets/dicts/nginx.zdict', 'Trying 5 different sets of parameters\nk=1998\nd=8\nf=20\nSave dictionary of size 112640 into file assets/dicts/nginx.zdict')],
          'qr-dict',
        ),
        u('sweet'),
      ],
    },
  ],
  questions: [
    { question: 'What was rustc rejecting in the line reader, and how did we satisfy it without copying?', category: 'root-cause', evidence: ['qr-borrow'], answer: 'E0502: the returned slice borrowed self.buf while advance() needed &mut self; fixed by computing start/end indices, updating pos, then slicing.', find: ['let start = self.pos;'] },
    { question: 'Why did we not go with the fastest codec in the comparison?', category: 'decision', evidence: ['qr-codec'], answer: 'lz4 only reached 2.1x ratio, too low for logs kept a year; zstd chosen (brotli too slow at 9 MB/s).', find: ['2.1x', 'zstd'] },
    { question: 'Which compression level are archives packed with these days?', category: 'changed-value', evidence: ['qr-go6'], answer: 'Level 6 (changed from 9).', find: ['go with 6'] },
    { question: 'What setting did we originally choose for long-term storage packing?', category: 'changed-value', evidence: ['qr-codec'], answer: '9', find: ['level 9'] },
    { question: 'Why did the tool blow up on an input of exactly two blocks?', category: 'root-cause', evidence: ['qr-panic'], answer: 'An inclusive range input[start..=start+CHUNK] read one byte past the end on the last chunk when the length is an exact multiple of 64 KiB.', find: ['..=start + CHUNK'] },
    { question: 'How did we trigger that crash without the customer file?', category: 'command', evidence: ['qr-repro'], answer: 'head -c 131072 /dev/urandom > /tmp/two-chunks.bin && cargo run --release -- pack /tmp/two-chunks.bin', find: ['head -c 131072 /dev/urandom'] },
    { question: 'What did I say about bypassing bounds checks for performance?', category: 'preference', evidence: ['qr-unsafe'], answer: 'No unsafe in quarry; if ever needed it goes into a separate small crate with miri in CI (forbid(unsafe_code) added).', find: ['miri'] },
    { question: 'What is the oldest toolchain we promise to build with, and where did that number come from?', category: 'config-value', evidence: ['qr-ci'], answer: 'Rust 1.74 (rust-version), because the ops build hosts on Debian bookworm backports have rustc 1.74.1.', find: ['rust-version = "1.74"'] },
    { question: 'Where are the pull-request checks for the packer defined?', category: 'location', evidence: ['qr-ci'], answer: '.github/workflows/ci.yml', find: ['.github/workflows/ci.yml'] },
    { question: 'How do I keep a reference performance run from trunk to compare a branch with?', category: 'command', evidence: ['qr-baseline'], answer: 'cargo bench --bench decode -- --save-baseline main (then --baseline main on the branch).', find: ['--save-baseline main'] },
    { question: 'What makes any linter warning break the pipeline?', category: 'config-value', evidence: ['qr-ci'], answer: 'cargo clippy --all-targets -- -D warnings', find: ['-D warnings'] },
    { question: 'What was the cut-off for shipping the next minor version, and what was it tied to?', category: 'temporal', evidence: ['qr-go6'], answer: '0.4.0 by February 20, before the retention policy change on March 1.', find: ['February 20'] },
    { question: 'When we lowered the setting, what did we gain in speed and lose in size?', category: 'multi-hop', evidence: ['qr-level-6', 'qr-codec'], answer: 'About 3x faster packing (112 vs 38 MB/s) for ratio 5.4x instead of 5.8x (~7% more disk).', find: ['112 MB/s', '5.4x'] },
    { question: 'Under what terms is the crate published?', category: 'decision', evidence: ['qr-license'], answer: 'Dual MIT OR Apache-2.0.', find: ['dual MIT/Apache'] },
    { question: 'Where did we put the pre-built compression primer for the web server\'s request logs?', category: 'location', evidence: ['qr-dict'], answer: 'assets/dicts/nginx.zdict (embedded with include_bytes!).', find: ['assets/dicts/nginx.zdict'] },
    { question: 'What command generated that primer?', category: 'command', evidence: ['qr-dict'], answer: 'zstd --train samples/nginx/*.log --maxdict=112640 -o assets/dicts/nginx.zdict', find: ['zstd --train samples/nginx/*.log'] },
    { question: 'What ratio gain did the primer give on small pieces of input?', category: 'multi-hop', evidence: ['qr-dict'], answer: 'From 5.4x to 7.9x at level 6 on 64 KiB chunks.', find: ['7.9x'] },
    { question: 'When did the ingest machine fall behind and force a speed-oriented setting?', category: 'temporal', evidence: ['qr-slow', 'qr-level-6'], answer: 'February 11, 2026.', find: ['Level 6 packs'] },
  ],
};
