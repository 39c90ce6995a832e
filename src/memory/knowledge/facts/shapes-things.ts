// Fact shapes about things: ports, hosts, paths and versions of systems, and dates of events. The
// subject is the thing ("the staging database", "Node", "the launch"), never the speaker.
import { attributeKey } from './keys.js';
import { CHANGED_BY, NOW, THING, shape, type Draft, type Groups, type Shape, type ShapeContext } from './shape.js';
import { VERSION_SHAPES } from './shapes-versions.js';
import { endsValue, readHost, readPath, readPort, readThing } from './values.js';
import { findDate } from './when.js';

function thingFact(attribute: string, read: (text: string) => string | null, confidence: number): Shape['read'] {
  return (g) => {
    const subject = readThing(g.thing ?? '');
    const value = read(g.rest ?? '');
    return subject && value ? [{ subject, attribute, value, confidence }] : [];
  };
}

const REST = String.raw`\s+(?<rest>.+)`;
/** "from harbor-1.x.internal" before the new host: the host a move replaces. */
const FROM_HOST = String.raw`(?:\s+from\s+(?:(?:the\s+)?(?:host|server|machine|box)\s+)?(?<from>[^\s,;]+))?`;
/** "on the host build-3.internal", "to server x.internal": the word before the name says what it is. */
const ON_HOST = String.raw`(?:\s+(?:the\s+|a\s+|new\s+)*(?:host|server|machine|box|vm|node))?`;

/** A host fact, naming the host it replaces when the clause does ("moved from A to B"); a "from" that is no host states nothing. */
function hostFact(confidence: number): Shape['read'] {
  return (g, c) => {
    const facts = thingFact('host', readHost, confidence)(g, c);
    if (g.from === undefined) return facts;
    const replaces = readHost(g.from);
    return replaces ? facts.map((f) => ({ ...f, replaces })) : [];
  };
}

const DETERMINER = /^(?:the|our|my|your|their|this|that)\s+/iu;

/** Words that name a server or a service: a bare number said of one of these is its port ("staging is on 6543"). */
const SERVER_WORDS = new Set(
  ('staging prod production dev development qa uat sandbox preprod database databases db server servers api apis service svc ' +
    'cache redis postgres postgresql pg mysql mariadb mongo mongodb nginx proxy gateway backend frontend endpoint broker kafka ' +
    'rabbitmq elasticsearch opensearch grafana prometheus dashboard container instance cluster daemon worker webserver ssh sshd ' +
    'smtp imap dns ftp grpc websocket metrics admin console minio keycloak mailhog jaeger kibana consul vault etcd memcached ' +
    'clickhouse influxdb traefik haproxy caddy jenkins app site devserver vm box pod ingress listener').split(' '),
);

function isServer(thing: string): boolean {
  return thing
    .toLowerCase()
    .split(/\s+/u)
    .some((w) => SERVER_WORDS.has(w.replace(/'s$/u, '')));
}

function fact(subject: string | null, attribute: string, value: string | null, confidence: number): Draft[] {
  return subject && value ? [{ subject, attribute, value, confidence }] : [];
}

/** Like thingFact, for a subject that must be a server or a service. */
function serverFact(attribute: string, read: (text: string) => string | null, confidence: number): Shape['read'] {
  return (g) => {
    const subject = readThing(g.thing ?? '');
    return subject && isServer(subject) ? fact(subject, attribute, read(g.rest ?? ''), confidence) : [];
  };
}

/** A port written without the word "port": at least `digits` digits ("is on 5" is no port). */
function readBarePort(text: string, digits: number): string | null {
  const port = readPort(text);
  return port && port.length >= digits ? port : null;
}

/** Events whose date is a fact ("the launch is on March 3"); other nouns with a date are too often something else. */
const EVENT_NOUNS = new Set(
  ('launch release wedding meeting deadline birthday party trip flight interview appointment demo conference offsite retreat ' +
    'review exam surgery kickoff kick-off standup presentation talk workshop hackathon ceremony funeral graduation anniversary ' +
    'vacation holiday holidays move cutover migration freeze go-live sprint retro retrospective dinner lunch concert game match ' +
    'race marathon visit checkup check-up opening premiere event celebration reunion session training webinar meetup summit ' +
    'festival audit all-hands payday shower rehearsal recital hearing deployment deploy rollout beta launch-date ship-date ' +
    'due-date date operation procedure delivery closing signing handover onboarding exam test').split(' '),
);

/** "the launch", "our wedding", "Ana's birthday", "the product launch": subject and event, or null. */
function readEvent(text: string, c: ShapeContext): { subject: string; event: string } | null {
  const possessed = /^([^\s']+(?:\s+[^\s']+)?)'s\s+(.+)$/u.exec(text.trim());
  const subject = possessed ? c.who(possessed[1]) : c.owner;
  const words = (possessed ? possessed[2]! : text)
    .trim()
    .toLowerCase()
    .split(/\s+/u)
    .filter((w) => !/^(?:the|our|my|your|their|his|her|this|that|next|upcoming|big)$/u.test(w));
  if (!subject || words.length === 0 || words.length > 4 || !EVENT_NOUNS.has(words[words.length - 1]!)) return null;
  if (words.some((w) => /^(?:i|we|you|he|she|they|it)$/u.test(w) || !/^[\p{L}\p{N}-]+$/u.test(w))) return null;
  return { subject, event: words.join(' ') };
}

/** The date that opens `text` ("March 3", "on 2026-06-12 at 10:00"), resolved against the memory's time. */
function eventDate(g: Groups, c: ShapeContext): Draft[] {
  const ev = readEvent(g.event ?? '', c);
  if (!ev) return [];
  const rest = (g.rest ?? '').trim();
  const found = findDate(rest, c.time, !/\b(?:was|were|had)\b/iu.test(c.clause));
  if (!found || found.index > 4) return [];
  const after = rest.slice(found.index + found.text.length);
  if (!endsValue(after) && !/^\s*(?:at\s+)?\d/u.test(after)) return [];
  return [{ subject: ev.subject, attribute: attributeKey(`date of ${ev.event}`), value: found.iso, confidence: 0.75 }];
}

/** Every date chrono-node reads has a digit or one of these words. */
const DATE_CUE = /\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun|today|tonight|tomorrow|week|month|year/i;
const EVENT = String.raw`(?<event>[^\s,;:]+(?:\s+[^\s,;:]+){0,4}?)`;

export const THING_SHAPES: readonly Shape[] = [
  // Ports: "the staging database runs on port 5433", "staging db port is 5433", "we moved the staging database to port 6543".
  shape('port-on', /port/i, `${THING}${NOW}\\s+(?:(?:runs|is\\s+running|listens|is\\s+listening|is|lives|sits|serves|is\\s+served|is\\s+exposed|is\\s+available|is\\s+reachable|moved|has\\s+moved|was\\s+moved|got\\s+moved|binds|is\\s+bound)${NOW}\\s+(?:on|at|to|onto)|uses|is\\s+using|exposes|is\\s+exposing)\\s+port${REST}`, 'change', thingFact('port', readPort, 0.9)),
  shape('port-is', /port/i, `${THING}\\s*(?:'s)?\\s+port\\s+(?:is|=|:|now\\s+is|(?:(?:was|has|has\\s+been|got)\\s+)?(?:changed|moved|switched|bumped)(?:\\s+from\\s+\\d{1,5})?\\s+to)${NOW}${REST}`, 'change', thingFact('port', readPort, 0.9)),
  // "the port of the cache is 6379", and with the tool first: "postgres port for staging is 6543" (staging postgres).
  shape('port-of', /port/i, `(?:the\\s+)?(?:(?<tool>[\\p{L}\\p{N}.-]+)\\s+)?port\\s+(?:of|for)\\s+${THING}\\s+(?:is|was\\s+changed\\s+to|changed\\s+to|moved\\s+to)${NOW}${REST}`, 'change', (g) => {
    const thing = readThing(g.thing ?? '');
    const subject = thing && g.tool && !/^(?:the|our|my|a)$/iu.test(g.tool) ? `${thing.replace(DETERMINER, '')} ${g.tool}` : thing;
    return fact(subject, 'port', readPort(g.rest ?? ''), 0.9);
  }),
  shape('port-moved', /port/i, `${CHANGED_BY}(?:moved|switched|changed|migrated|put|set|bumped|reconfigured|remapped)\\s+${THING}(?:'s\\s+port)?(?:\\s+from\\s+(?:port\\s+)?\\d{1,5})?(?:\\s+over)?\\s+(?:to|onto|on)\\s+port${REST}`, 'change', thingFact('port', readPort, 0.85)),
  shape('port-moved-bare', /port/i, `${CHANGED_BY}(?:moved|switched|changed|set|bumped)\\s+${THING}(?:'s)?\\s+port(?:\\s+from\\s+\\d{1,5})?\\s+to${REST}`, 'change', thingFact('port', readPort, 0.85)),
  // A number without the word "port": after a verb only a listener has ("listens on 5433"), or said of a server ("staging is
  // on 6543"; "at" is a level there: "the cluster is at 500").
  shape('port-listens', /\d\d/, `${THING}${NOW}\\s+(?:listens|is\\s+listening|binds|is\\s+bound|is\\s+exposed|exposes)${NOW}(?:\\s+(?:on|to|at))?\\s+(?<rest>\\d.*)`, 'change', thingFact('port', (t) => readBarePort(t, 2), 0.85)),
  shape('port-server', /\d\d\d/, `${THING}(?:'s)?${NOW}(?:\\s+(?:is|runs|is\\s+running|lives|sits|moved|has\\s+moved|was\\s+moved|got\\s+moved|is\\s+served))?${NOW}\\s+on\\s+(?<rest>\\d.*)`, 'change', serverFact('port', (t) => readBarePort(t, 3), 0.75)),
  shape('port-server-moved', /\d\d\d/, `${CHANGED_BY}(?:moved|switched|changed|bumped|put|migrated)\\s+${THING}(?:\\s+over)?\\s+(?:to|onto)\\s+(?<rest>\\d.*)`, 'change', serverFact('port', (t) => readBarePort(t, 3), 0.75)),

  // Hosts: "api host is api.internal", "the API is hosted on api.internal", "we moved the API to api2.internal".
  shape('host-is', /host/i, `${THING}\\s*(?:'s)?\\s+(?:host|hostname|host\\s+name)\\s+(?:is|=|:|is\\s+now|now\\s+is|changed\\s+to|was\\s+changed\\s+to|moved\\s+to)${REST}`, 'change', thingFact('host', readHost, 0.85)),
  shape('host-of', /host/i, `(?:the\\s+)?(?:host|hostname)\\s+(?:of|for)\\s+${THING}\\s+(?:is|is\\s+now|changed\\s+to)${REST}`, 'change', thingFact('host', readHost, 0.85)),
  // "the build server moved from harbor-1.internal to fjord-2.internal last night": the old host is named, and replaced.
  shape('host-on', /\.|localhost/i, `${THING}${NOW}\\s+(?:is\\s+hosted|runs|is\\s+running|is\\s+deployed|is\\s+served|lives|moved|was\\s+moved|has\\s+moved|got\\s+moved|migrated|was\\s+migrated|has\\s+been\\s+migrated|is\\s+reachable|is\\s+available|points|is\\s+pointing|is\\s+pointed|resolves)${NOW}${FROM_HOST}(?:\\s+over)?\\s+(?:on|at|to|from|onto)${ON_HOST}${REST}`, 'change', hostFact(0.8)),
  // "redis is on localhost:6379": "is on/at" names a host only for a server, or with a port or address ("Ana is at Booking.com" is no host).
  shape('host-is-on', /\.|localhost/i, `${THING}(?:'s|\\s+is)${NOW}\\s+(?:on|at)${REST}`, 'change', (g, c) => {
    const host = readHost(g.rest ?? '');
    const plain = host !== null && !/:\d+$|^localhost|^(?:\d{1,3}\.){3}\d{1,3}/u.test(host);
    return plain ? serverFact('host', readHost, 0.75)(g, c) : thingFact('host', readHost, 0.75)(g, c);
  }),
  shape('host-moved', /\.|localhost/i, `${CHANGED_BY}(?:moved|migrated|switched|pointed|repointed|redeployed)\\s+${THING}${FROM_HOST}(?:\\s+over)?\\s+(?:to|at|onto)${ON_HOST}${REST}`, 'change', hostFact(0.8)),

  // Paths: "config lives at /etc/x", "the logs go to /var/log/app", "we moved the config to ~/.cairn".
  shape('path-at', /[/\\]/, `${THING}${NOW}\\s+(?:lives|is|are|sits|is\\s+stored|are\\s+stored|is\\s+located|is\\s+kept|are\\s+kept|goes|go|is\\s+written|are\\s+written|gets?\\s+written|moved|was\\s+moved|has\\s+moved|is\\s+saved|are\\s+saved)${NOW}\\s+(?:at|in|to|under|into)${REST}`, 'change', thingFact('path', readPath, 0.8)),
  shape('path-is', /[/\\]/, `${THING}\\s*(?:'s)?\\s+(?:path|location|directory|dir|folder)\\s+is${NOW}${REST}`, 'change', thingFact('path', readPath, 0.8)),
  shape('path-moved', /[/\\]/, `${CHANGED_BY}(?:moved|put|relocated|migrated)\\s+${THING}\\s+(?:to|into|under)${REST}`, 'change', thingFact('path', readPath, 0.8)),

  ...VERSION_SHAPES,

  // Dates of events: "the launch is on March 3", "wedding on 2026-06-12", "we moved the launch to March 10".
  shape('date-is', DATE_CUE, `${EVENT}\\s+(?:is|'s|will\\s+be|was|has\\s+been|got|is\\s+now)${NOW}(?:\\s+(?:on|scheduled\\s+for|planned\\s+for|set\\s+for|booked\\s+for|due|due\\s+on|moved\\s+to|pushed\\s+to|rescheduled\\s+(?:to|for)|postponed\\s+(?:to|until)|happening\\s+on|taking\\s+place\\s+on))?${REST}`, 'none', eventDate, true),
  shape('date-bare', DATE_CUE, `${EVENT}\\s*(?:\\s+on|:|\\s+-)${REST}`, 'none', eventDate, true),
  shape('date-moved', DATE_CUE, `${CHANGED_BY}(?:moved|pushed|rescheduled|postponed|set|scheduled|booked|planned)\\s+${EVENT}\\s+(?:to|for|on|until)${REST}`, 'none', eventDate, true),
];
