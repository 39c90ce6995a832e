// mulberry32: a tiny seeded PRNG, so generated test data (and a failure) replays exactly. The
// evaluation's bootstrap uses the same generator; one implementation serves both.
export { seededRandom as seeded } from '../../bench/eval/bootstrap.js';
