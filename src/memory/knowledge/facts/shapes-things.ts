// Fact shapes about things: ports, hosts, paths and versions of systems, and dates of events. The
// subject is the thing ("the staging database", "Node", "the launch"), never the speaker.
import { attributeKey } from './keys.js';
import { THING, shape, type Draft, type Groups, type Shape, type ShapeContext } from './shape.js';
import { endsValue, readHost, readPath, readPort, readThing } from './values.js';
import { findDate } from './when.js';

function thingFact(attribute: string, read: (text: string) => string | null, confidence: number): Shape['read'] {
  return (g) => {
    const subject = readThing(g.thing ?? '');
    const value = read(g.rest ?? '');
    return subject && value ? [{ subject, attribute, value, confidence }] : [];
  };
}

/** Words that take a number without being software: "page 3", "day 3", "sprint 12". */
const NOT_TOOLS = new Set(
  ('day days week weeks month months year years page pages chapter step steps floor level round season episode part phase ' +
    'sprint iteration lap mile miles km hour hours minute minutes track line item number issue ticket pr port version top ' +
    'the a an my our their team room table seat gate platform row slide question task point points percent times grade ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august ' +
    'september october november december').split(' '),
);

/** A version of a tool: "Node 20", "Postgres 16", "python 3.12", but not "page 3" or "tests 3 times". */
function versionFact(g: Groups): Draft[] {
  const tool = g.tool ?? '';
  const ver = g.ver ?? '';
  if (NOT_TOOLS.has(tool.toLowerCase()) || !endsValue(g.after ?? '')) return [];
  const looksLikeSoftware = /^\p{Lu}/u.test(tool) || /[\d.+#]/u.test(tool) || /\./u.test(ver);
  return looksLikeSoftware ? [{ subject: tool, attribute: 'version', value: ver, confidence: 0.8 }] : [];
}

const TOOL = String.raw`(?<tool>\p{L}[\p{L}\p{N}.+#_-]*)`;
const VER = String.raw`(?:v(?:ersion)?\s*)?(?<ver>v?\d+(?:\.\d+){0,3}(?:-[0-9a-z.]+)?)(?<after>.*)`;
const CHANGED_BY = String.raw`(?:[^\s,;:]+\s+)?(?:(?:have|has|had|just|finally|now|recently|also)\s+)*`;
const REST = String.raw`\s+(?<rest>.+)`;
const NOW = String.raw`(?:\s+(?:now|currently|still))?`;

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
  shape('port-on', /port/i, `${THING}${NOW}\\s+(?:runs|is\\s+running|listens|is\\s+listening|is|lives|sits|serves|is\\s+served|is\\s+exposed|is\\s+available|moved|has\\s+moved|was\\s+moved|got\\s+moved)${NOW}\\s+(?:on|at|to)\\s+port${REST}`, 'change', thingFact('port', readPort, 0.9)),
  shape('port-is', /port/i, `${THING}\\s*(?:'s)?\\s+port\\s+(?:is|=|:|was\\s+changed\\s+to|changed\\s+to|has\\s+changed\\s+to|is\\s+now|now\\s+is|moved\\s+to)${NOW}${REST}`, 'change', thingFact('port', readPort, 0.9)),
  shape('port-of', /port/i, `(?:the\\s+)?port\\s+(?:of|for)\\s+${THING}\\s+(?:is|is\\s+now|was\\s+changed\\s+to|changed\\s+to|moved\\s+to)${REST}`, 'change', thingFact('port', readPort, 0.9)),
  shape('port-moved', /port/i, `${CHANGED_BY}(?:moved|switched|changed|migrated|put|set|bumped|reconfigured|remapped)\\s+${THING}(?:'s\\s+port)?(?:\\s+from\\s+(?:port\\s+)?\\d{1,5})?\\s+(?:to|onto|on)\\s+port${REST}`, 'change', thingFact('port', readPort, 0.85)),
  shape('port-moved-bare', /port/i, `${CHANGED_BY}(?:moved|switched|changed|set|bumped)\\s+${THING}'s\\s+port(?:\\s+from\\s+\\d{1,5})?\\s+to${REST}`, 'change', thingFact('port', readPort, 0.85)),

  // Hosts: "api host is api.internal", "the API is hosted on api.internal", "we moved the API to api2.internal".
  shape('host-is', /host/i, `${THING}\\s*(?:'s)?\\s+(?:host|hostname|host\\s+name)\\s+(?:is|=|:|is\\s+now|now\\s+is|changed\\s+to|was\\s+changed\\s+to|moved\\s+to)${REST}`, 'change', thingFact('host', readHost, 0.85)),
  shape('host-of', /host/i, `(?:the\\s+)?(?:host|hostname)\\s+(?:of|for)\\s+${THING}\\s+(?:is|is\\s+now|changed\\s+to)${REST}`, 'change', thingFact('host', readHost, 0.85)),
  shape('host-on', /\.|localhost/i, `${THING}${NOW}\\s+(?:is\\s+hosted|runs|is\\s+running|is\\s+deployed|is\\s+served|lives|moved|was\\s+moved|has\\s+moved|is\\s+reachable|is\\s+available)${NOW}\\s+(?:on|at|to)(?:\\s+host)?${REST}`, 'change', thingFact('host', readHost, 0.8)),
  shape('host-moved', /\.|localhost/i, `${CHANGED_BY}(?:moved|migrated|switched|pointed|repointed)\\s+${THING}\\s+(?:to|at)(?:\\s+host)?${REST}`, 'change', thingFact('host', readHost, 0.8)),

  // Paths: "config lives at /etc/x", "the logs go to /var/log/app", "we moved the config to ~/.cairn".
  shape('path-at', /[/\\]/, `${THING}${NOW}\\s+(?:lives|is|are|sits|is\\s+stored|are\\s+stored|is\\s+located|is\\s+kept|are\\s+kept|goes|go|is\\s+written|are\\s+written|gets?\\s+written|moved|was\\s+moved|has\\s+moved|is\\s+saved|are\\s+saved)${NOW}\\s+(?:at|in|to|under|into)${REST}`, 'change', thingFact('path', readPath, 0.8)),
  shape('path-is', /[/\\]/, `${THING}\\s*(?:'s)?\\s+(?:path|location|directory|dir|folder)\\s+is${NOW}${REST}`, 'change', thingFact('path', readPath, 0.8)),
  shape('path-moved', /[/\\]/, `${CHANGED_BY}(?:moved|put|relocated|migrated)\\s+${THING}\\s+(?:to|into|under)${REST}`, 'change', thingFact('path', readPath, 0.8)),

  // Versions: "we upgraded to Node 20", "we upgraded Node to 20", "running Postgres 16", "X is on version 3.2".
  shape('version-to', /\d/, `${CHANGED_BY}(?:upgraded|updated|moved|migrated|bumped|switched|downgraded|went)(?:\\s+from\\s+(?:\\S+\\s+)?v?\\d[\\w.-]*)?\\s+to\\s+${TOOL}\\s+${VER}`, 'change', versionFact),
  shape('version-tool-to', /\d/, `${CHANGED_BY}(?:upgraded|updated|bumped|moved|migrated|downgraded)\\s+${TOOL}(?:\\s+from\\s+v?\\d[\\w.-]*)?\\s+to\\s+${VER}`, 'change', versionFact),
  shape('version-on', /\d/, `(?:[^\\s,;:]+\\s+){0,3}?(?:(?:now|currently|still)\\s+)?(?:running|using|on|runs|uses|run|use)\\s+${TOOL}\\s+${VER}`, 'since', versionFact),
  shape('version-is', /\d/, `${THING}\\s*(?:'s)?\\s+(?:is${NOW}\\s+(?:on|at)\\s+(?:version|v|release)\\s*|version\\s+is${NOW}\\s+)(?<ver>v?\\d+(?:\\.\\d+){0,3}(?:-[0-9a-z.]+)?)(?<after>.*)`, 'change', (g) =>
    versionOfThing(g)),
  shape('version-of', /\d/, `(?:the\\s+)?(?:current\\s+)?version\\s+of\\s+${THING}\\s+is${NOW}\\s+(?<ver>v?\\d+(?:\\.\\d+){0,3}(?:-[0-9a-z.]+)?)(?<after>.*)`, 'change', (g) =>
    versionOfThing(g)),

  // Dates of events: "the launch is on March 3", "wedding on 2026-06-12", "we moved the launch to March 10".
  shape('date-is', DATE_CUE, `${EVENT}\\s+(?:is|'s|will\\s+be|was|has\\s+been|got|is\\s+now)${NOW}(?:\\s+(?:on|scheduled\\s+for|planned\\s+for|set\\s+for|booked\\s+for|due|due\\s+on|moved\\s+to|pushed\\s+to|rescheduled\\s+(?:to|for)|postponed\\s+(?:to|until)|happening\\s+on|taking\\s+place\\s+on))?${REST}`, 'none', eventDate, true),
  shape('date-bare', DATE_CUE, `${EVENT}\\s*(?:\\s+on|:|\\s+-)${REST}`, 'none', eventDate, true),
  shape('date-moved', DATE_CUE, `${CHANGED_BY}(?:moved|pushed|rescheduled|postponed|set|scheduled|booked|planned)\\s+${EVENT}\\s+(?:to|for|on|until)${REST}`, 'none', eventDate, true),
];

function versionOfThing(g: Groups): Draft[] {
  const subject = readThing(g.thing ?? '');
  return subject && endsValue(g.after ?? '') ? [{ subject, attribute: 'version', value: g.ver!, confidence: 0.8 }] : [];
}
