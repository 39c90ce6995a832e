// Sentences about people (where they live and work, roles, preferences) as people write them in
// notes and chat, each with the facts it must give. Same conventions as facts-coverage-things.ts.
import type { Case } from './facts-coverage-things.js';

/** A relation before the name ("my sister Ana"): the subject is the person named. */
export const RELATIONS: readonly Case[] = [
  ['My sister Ana lives in Lisbon', ['Ana | lives in | Lisbon']],
  ['my brother Tom just moved to Denver', ['Tom | lives in | Denver']],
  ['Our neighbour Priya relocated to Manchester last month', ['Priya | lives in | Manchester @2026-02-01']],
  ['My manager Bob works at Initech', ['Bob | works at | Initech']],
  ['my best friend Ana Souza got a job at Globex', ['Ana Souza | works at | Globex']],
  ["Ana's husband Tom works for Hooli", ['Tom | works at | Hooli']],
  ['Ana, my sister, lives in Lisbon', ['Ana | lives in | Lisbon']],
  ['My cousin Luis is a nurse', ['Luis | role | nurse']],
  ['my coworker Raj got promoted to staff engineer', ['Raj | role | staff engineer']],
  ['my old roommate Kenji lives in Osaka now', ['Kenji | lives in | Osaka']],
  ['Reminder: my mom Helen moved to Bristol', ['Helen | lives in | Bristol']],
  ['My girlfriend Mia started at Spotify in January', ['Mia | works at | Spotify @2026-01-01']],
];

export const LIVING: readonly Case[] = [
  ['Ana is now living in Porto', ['Ana | lives in | Porto']],
  ['Ana relocated to Berlin', ['Ana | lives in | Berlin']],
  ['we settled in Utrecht in January', ['Sam | lives in | Utrecht @2026-01-01']],
  ['Since 2021, Ana has been living in Oslo', ['Ana | lives in | Oslo @2021-01-01']],
  ['i live in lisbon now', ['Sam | lives in | Lisbon']],
  ['we moved to porto last month', ['Sam | lives in | Porto @2026-02-01']],
  ['Just moved into a flat in Lisbon', ['Sam | lives in | Lisbon']],
  ['Finally moved back to Toronto', ['Sam | lives in | Toronto']],
  ['Ana moved out to Denver', ['Ana | lives in | Denver']],
  ["we've been living in Valencia since September", ['Sam | lives in | Valencia @2025-09-01']],
  ['these days I live in Leeds', ['Sam | lives in | Leeds']],
  ['Ana now lives in Zurich', ['Ana | lives in | Zurich']],
  ['btw we moved to new york in the fall', ['Sam | lives in | New York']],
];

export const WORK: readonly Case[] = [
  ["I've been at Acme since March", ['Sam | works at | Acme @2026-03-01']],
  ['Ana got a job at Globex', ['Ana | works at | Globex']],
  ['Bob left Initech and joined Hooli', ['Bob | works at | Hooli (replaces Initech)']],
  ['I started at Stripe in January', ['Sam | works at | Stripe @2026-01-01']],
  ["I'm now working for Globex", ['Sam | works at | Globex']],
  ['Ana was hired by Globex as a designer', ['Ana | works at | Globex', 'Ana | role | designer']],
  ['i accepted an offer from Shopify', ['Sam | works at | Shopify']],
  ["Ana's been at Globex for two years", ['Ana | works at | Globex']],
  ['Priya quit Initech to join Hooli', ['Priya | works at | Hooli (replaces Initech)']],
  ["I'm employed at Deloitte", ['Sam | works at | Deloitte']],
  ['my new employer is Globex', ['Sam | works at | Globex']],
  ['Since last month I work at Globex', ['Sam | works at | Globex @2026-02-01']],
  ['ok so i work at Globex now', ['Sam | works at | Globex']],
  ["I'm the tech lead now", ['Sam | role | tech lead']],
  ['Ana is now our engineering manager', ['Ana | role | engineering manager']],
  ['Raj became the new CTO in February', ['Raj | role | CTO @2026-02-01']],
];

export const PREFERENCES: readonly Case[] = [
  ["I've switched to oat milk", ['Sam | prefers | oat milk']],
  ['these days I prefer tea', ['Sam | prefers | tea']],
  ['my new favourite editor is Helix', ['Sam | favourite editor | Helix']],
  ['i switched to decaf', ['Sam | prefers | decaf']],
  ['Nowadays I prefer dark roast over light roast', ['Sam | prefers | dark roast']],
  ['I switched from Chrome to Firefox', ['Sam | prefers | Firefox (replaces Chrome)']],
  ['my go-to editor is now Zed', ['Sam | favourite editor | Zed']],
  ["Ana's favourite drink is a cortado", ['Ana | favourite drink | cortado']],
  ['FYI my favorite IDE these days is IntelliJ', ['Sam | favourite ide | IntelliJ']],
  ['I now prefer aisle seats', ['Sam | prefers | aisle seats']],
  ['i switched to oat milk in my coffee', ['Sam | prefers | oat milk']],
  ['lately I prefer green tea', ['Sam | prefers | green tea']],
  ["I've moved on from cortados to flat whites", ['Sam | prefers | flat whites (replaces cortados)']],
];

/** Look like a person's fact, state none (or none about the one named). */
export const PEOPLE_NOTHING: readonly Case[] = [
  ['My sister lives in Lisbon', []],
  ['my sister Ana might move to Lisbon', []],
  ['Did my sister Ana move to Lisbon?', []],
  ['I switched to the other tab', []],
  ['I switched to it yesterday', []],
  ["I've been at the gym since 6am", []],
  ["I've been at Heathrow since 6am", []],
  ['Ana left Initech', []],
  ['Bob said he joined Hooli', []],
  ['I would switch to oat milk if it were cheaper', []],
  ['I never switched to oat milk', []],
  ["we're in Berlin this week", []],
  ["I'm from Brazil", []],
  ['my favourite editor used to be Vim', []],
  ['My sister Ana is in Lisbon this week', []],
  ['i live in a van', []],
  ['we moved to postgres', []],
  ['we moved to the new office', []],
  ['I started at 9 today', []],
  ["I'm at Starbucks", []],
  ['Just moved the couch to the bedroom', []],
  ['Ana left Initech and joined a band', []],
  ['my sister Ana wants to move to Lisbon', []],
  ['Ana and my sister moved to Lisbon', []],
];
