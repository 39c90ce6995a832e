// Preload for a child process (`node --import <this file> …`): when CAIRN_TEST_MAXRSS_FILE is set,
// writes the process's peak resident set size to that file as it exits, so a test can check that a
// real CLI run stayed within a memory bound. Plain JavaScript: the child runs without a TS loader.
import { writeFileSync } from 'node:fs';

const out = process.env.CAIRN_TEST_MAXRSS_FILE;
if (out) {
  process.on('exit', () => {
    // resourceUsage().maxRSS is in kibibytes.
    writeFileSync(out, JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS }));
  });
}
