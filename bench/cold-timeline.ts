// Where a cold `cairn search` spends its time, thread by thread: a copy of the built CLI (dist/) in
// a temporary folder with marks added to its bundles, run as fresh processes on a copy of a home.
// Each mark prints when it is passed, in ms since the executable started (the main thread's
// marks and the model thread's, `w-…`, on one clock), and the median over the runs is shown; the
// modules' own start-up (each bundled module's top level, its imports' excluded) is summed too.
// Beside each mark, the page faults its thread had taken by then: a first touch of a fresh page
// costs ~15 µs on this machine, so they say how much of a stretch is memory being handed out.
// `spawn` is when the parent started the process (Node's own start before the bundle runs), `ended`
// when it saw the process gone (after the exit event: threads joined, memory returned).
// The built files are not changed. A mark whose place the bundle no longer has is reported and
// left out (the places are written in the bundle's minified form: update them with the code).
//
//   node --import tsx bench/cold-timeline.ts --home <a home> [--runs 10] [--mode hybrid|bm25]
//
// --home: a home to copy, e.g. the cold-start bench's cached 10k home
// (<tmp>/cairn-bench-cache/synthetic-10k-…; `npm run bench:cold` makes it). Two runs first write the
// copy's code cache (a marked bundle is another bundle to V8), and are not counted.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A mark: the code it goes before (or after), found once in a bundle as esbuild wrote it; or, inside
 * an expression, that code written again with the mark in it (`to`, where __tl(name) is `@`).
 */
interface Mark {
  name: string;
  at: string;
  after?: boolean;
  to?: string;
}

const MAIN_MARKS: Mark[] = [
  { name: 'main', at: 'async function main(argv){', after: true },
  { name: 'open-cairn', at: 'function openCairn(cmd,extra={}){', after: true },
  { name: 'open', at: 'static async open(options={}){', after: true },
  { name: 'home-open', at: 'notices.forEach(notice);' },
  { name: 'search-ns', at: 'async function searchNamespace(deps,ns,input2){', after: true },
  { name: 'vec-asked', at: 'const index2=deps.embedder.index();' },
  { name: 'index-ready', at: 'const mode=vectors?input2.mode:"bm25";' },
  { name: 'hybrid', at: 'async function hybridSearch(deps,params){', after: true },
  { name: 'want-vec', at: 'const queryVec=vectorSide?await vectorSide.queryVector:null;' },
  { name: 'got-vec', at: 'const annSeqs=[];' },
  { name: 'entries', at: 'if(needsExactScan(' },
  { name: 'cosines', at: 'const fusion=fusionOf(' },
  { name: 'scored', at: 'const kept=keepHits(' },
  { name: 'assembled', at: 'const shownIds=pickedTurnIds(assembly);' },
  {
    name: 'close',
    at: 'async close(){try{await this.vectorIndex?.persist()}finally{await this.embedder?.close();await this.store.close()}}',
    to: 'async close(){@;try{await this.vectorIndex?.persist()}finally{__tl("index-saved");await this.embedder?.close();__tl("model-closed");await this.store.close();__tl("store-closed")}}',
  },
];

/** The executable (bundle-loader.ts, not minified): the model's thread started, the bundle read, compiled and run. */
const LOADER_MARKS: Mark[] = [
  { name: 'thread-started', at: '  startModelEarly(args);\n', after: true },
  { name: 'bundle-read', at: '    cache = openCache(filename, args);\n' },
  { name: 'cache-read', at: '    script = new import_node_vm.Script(' },
  { name: 'compiled', at: '  if (cache && !LONG_RUNNING.has(' },
  { name: 'bundle-ran', at: '  const module2 = { exports: {} };\n' },
];

const WORKER_MARKS: Mark[] = [
  { name: 'w-ort', at: 'ort = loadOnnxRuntime();' },
  { name: 'w-ort-done', at: 'const dir = useLiteModelDir();' },
  { name: 'w-session-start', at: 'session = await ort.InferenceSession.create(prepacked.path' },
  { name: 'w-session', at: 'maxTokens = prepacked.maxTokens;' },
  { name: 'w-run', at: 'const out = await this.session.run({' },
  { name: 'w-ran', at: 'return out.embedding.data.slice();' },
  { name: 'w-answer', at: '(res) => port.postMessage(', to: '(res) => (@, port).postMessage(' },
];

/**
 * Writes `TL <name> <epoch ms> <minor page faults of this thread so far>` to stderr, synchronously (a
 * worker's stderr is otherwise relayed later). A first touch of a page costs ~15 µs on this machine:
 * the faults say how much of a stretch is memory being handed to the process.
 */
const MARK_FN =
  'globalThis.__tl=(n)=>{try{const fs=require("node:fs");let f="";try{f=fs.readFileSync("/proc/thread-self/stat","latin1").split(") ")[1].split(" ")[7]}catch{}fs.writeSync(2,`TL ${n} ${(performance.timeOrigin+performance.now()).toFixed(2)} ${f}\\n`)}catch{}};';

/**
 * esbuild's lazy module wrappers, timed: each module's top level, less the modules it starts,
 * added to globalThis.__initMs (printed at exit as `INIT <json>`).
 */
const TIMED_INIT = [
  {
    at: 'var __esm=(fn,res,err2)=>function __init(){if(err2)throw err2[0];try{return fn&&(res=(0,fn[__getOwnPropNames(fn)[0]])(fn=0)),res}catch(e){throw err2=[e],e}};',
    to: 'var __esm=(fn,res,err2)=>function __init(){if(err2)throw err2[0];try{if(!fn)return res;const n=__getOwnPropNames(fn)[0],f=fn[n];fn=0;return res=__timedInit(n,()=>f())}catch(e){throw err2=[e],e}};',
  },
  {
    at: 'var __commonJS=(cb,mod)=>function __require(){try{return mod||(0,cb[__getOwnPropNames(cb)[0]])((mod={exports:{}}).exports,mod),mod.exports}catch(e){throw mod=0,e}};',
    to: 'var __commonJS=(cb,mod)=>function __require(){try{if(mod)return mod.exports;const n=__getOwnPropNames(cb)[0];__timedInit(n,()=>(0,cb[n])((mod={exports:{}}).exports,mod));return mod.exports}catch(e){throw mod=0,e}};',
  },
];
const TIMED_INIT_FN =
  'const __initStack=[];globalThis.__initMs={};function __timedInit(n,f){__initStack.push(0);const t=performance.now();try{return f()}finally{const d=performance.now()-t;const inner=__initStack.pop();if(__initStack.length)__initStack[__initStack.length-1]+=d;globalThis.__initMs[n]=(globalThis.__initMs[n]??0)+d-inner}}';

/** The bundle with marks added; the names of marks whose place was not found. */
function marked(source: string, marks: readonly Mark[], missing: string[]): string {
  let out = source;
  for (const m of marks) {
    const i = out.indexOf(m.at);
    if (i < 0 || out.indexOf(m.at, i + 1) >= 0) {
      missing.push(m.name);
      continue;
    }
    const call = `__tl(${JSON.stringify(m.name)})`;
    out = out.replace(m.at, m.to ? m.to.replace('@', call) : m.after ? `${m.at}${call};` : `${call};${m.at}`);
  }
  return out;
}

/** After the first line (a shebang or the bundle's own function header) or at the very top. */
function withPrelude(source: string, prelude: string): string {
  if (!source.startsWith('#!')) return prelude + '\n' + source;
  const nl = source.indexOf('\n');
  return source.slice(0, nl + 1) + prelude + '\n' + source.slice(nl + 1);
}

function markedCopy(dest: string, missing: string[]): string {
  cpSync(join(REPO, 'dist'), join(dest, 'dist'), { recursive: true });
  cpSync(join(REPO, 'package.json'), join(dest, 'package.json'));
  symlinkSync(join(REPO, 'node_modules'), join(dest, 'node_modules'));
  const bin = join(dest, 'dist', 'bin');
  const exit = '__tl("bin-start");process.on("exit",()=>{__tl("exit");require("node:fs").writeSync(2,`INIT ${JSON.stringify(globalThis.__initMs??{})}\\n`)});';
  writeFileSync(join(bin, 'cairn.js'), withPrelude(marked(readFileSync(join(bin, 'cairn.js'), 'utf8'), LOADER_MARKS, missing), MARK_FN + exit));
  let cli = marked(readFileSync(join(bin, 'cli.cjs'), 'utf8'), MAIN_MARKS, missing);
  for (const t of TIMED_INIT) {
    if (cli.includes(t.at)) cli = cli.replace(t.at, t.to);
    else missing.push('module start-up times');
  }
  // Inside the bundle's function, after its 'use strict' (which must stay its first statement).
  const strict = cli.indexOf("'use strict';", cli.indexOf('(function')) + "'use strict';".length;
  cli = cli.slice(0, strict) + TIMED_INIT_FN + cli.slice(strict);
  writeFileSync(join(bin, 'cli.cjs'), cli);
  writeFileSync(join(bin, 'embed-worker.cjs'), withPrelude(marked(readFileSync(join(bin, 'embed-worker.cjs'), 'utf8'), WORKER_MARKS, missing), MARK_FN));
  return join(bin, 'cairn.js');
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)]!;
};

function main(): void {
  const args = process.argv.slice(2);
  const value = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const template = value('--home');
  if (!template || !existsSync(template)) throw new Error('--home <a home to copy> is required (npm run bench:cold keeps one in the temporary folder)');
  const runs = Number(value('--runs') ?? 10);
  const mode = value('--mode') ?? 'hybrid';
  if (!Number.isInteger(runs) || runs < 1 || !['hybrid', 'bm25'].includes(mode)) throw new Error('--runs must be a positive integer and --mode hybrid or bm25');
  const scratch = mkdtempSync(join(tmpdir(), 'cairn-cold-timeline-'));
  try {
    const missing: string[] = [];
    const cli = markedCopy(join(scratch, 'build'), missing);
    const home = join(scratch, 'home');
    cpSync(template, home, { recursive: true });
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    delete env.NODE_EXTRA_CA_CERTS;
    const marks = new Map<string, number[]>();
    const faults = new Map<string, number[]>();
    const inits = new Map<string, number[]>();
    const walls: number[] = [];
    for (let r = -2; r < runs; r++) {
      // Letters only: a digit would load the date parser (cold-ab.ts does the same).
      const word = Array.from({ length: 7 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');
      const started = performance.now();
      const spawnedAt = performance.timeOrigin + started;
      const res = spawnSync(process.execPath, [cli, 'search', `what did we decide about the ${word} pipeline`, '--json', '--mode', mode, '--home', home], { env, encoding: 'utf8' });
      const ended = performance.now();
      const wall = ended - started;
      if (res.status !== 0) throw new Error(`cairn search exited ${res.status}: ${res.stderr.slice(-2000)}`);
      if (r < 0) continue; // writes the copy's code cache
      walls.push(wall);
      const lines = res.stderr.split('\n');
      const tl = lines.filter((l) => l.startsWith('TL ')).map((l) => l.split(' '));
      const start = Number(tl.find((t) => t[1] === 'bin-start')?.[2] ?? tl[0]?.[2]);
      const seen = new Set<string>();
      for (const [, name, at, minflt] of tl) {
        // A mark passed twice (the model thread answers twice: loaded, then the vector) keeps both, numbered.
        let key = name!;
        for (let k = 2; seen.has(key); k++) key = `${name}#${k}`;
        seen.add(key);
        marks.set(key, [...(marks.get(key) ?? []), Number(at) - start]);
        if (minflt) faults.set(key, [...(faults.get(key) ?? []), Number(minflt)]);
      }
      // Before the bundle runs (Node's own start) and after its exit event (threads stopped, memory
      // returned): on the parent's clock, which shares the epoch with the marks.
      marks.set('spawn', [...(marks.get('spawn') ?? []), spawnedAt - start]);
      if (tl.some((t) => t[1] === 'exit')) marks.set('ended', [...(marks.get('ended') ?? []), performance.timeOrigin + ended - start]);
      const init = lines.find((l) => l.startsWith('INIT '));
      for (const [name, ms] of Object.entries(init ? (JSON.parse(init.slice(5)) as Record<string, number>) : {})) inits.set(name, [...(inits.get(name) ?? []), ms]);
    }
    const order = [...marks].map(([name, at]) => ({ name, at: median(at), n: at.length })).sort((a, b) => a.at - b.at);
    console.log(`Cold \`cairn search --mode ${mode}\`, ${runs} runs on a copy of ${template}: median ms since the executable started (wall, process start to exit: median ${median(walls).toFixed(0)} ms)\n`);
    console.log("| mark | main thread | model thread | the thread's page faults so far | runs |\n|---|---|---|---|---|");
    for (const o of order) {
      const f = faults.get(o.name);
      console.log(`| ${o.name} | ${o.name.startsWith('w-') ? '' : o.at.toFixed(1)} | ${o.name.startsWith('w-') ? o.at.toFixed(1) : ''} | ${f ? median(f).toFixed(0) : ''} | ${o.n} |`);
    }
    const init = [...inits].map(([name, ms]) => ({ name, ms: median(ms) })).sort((a, b) => b.ms - a.ms);
    const total = init.reduce((s, x) => s + x.ms, 0);
    console.log(`\nBundled modules' own start-up, median ms (all: ${total.toFixed(1)} ms):\n`);
    console.log('| module | ms |\n|---|---|');
    for (const x of init.slice(0, 25)) console.log(`| ${x.name} | ${x.ms.toFixed(1)} |`);
    if (missing.length) console.log(`\nNot placed (the bundle has changed there): ${missing.join(', ')}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main();
