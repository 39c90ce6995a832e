// Fact shapes about versions of software: "we upgraded to Node 20", "bumped React to 19",
// "upgraded postgres from 15 to 16", "running Postgres 16", "terraform is pinned to 1.7.5". The
// subject is the tool, never the speaker; a version the text says was left ("from 15") is named as
// the value replaced.
import { CHANGED_BY, NOW, THING, shape, type Draft, type Groups, type Shape } from './shape.js';
import { endsValue, readThing } from './values.js';

/** Words that take a number without being software: "page 3", "day 3", "sprint 12". */
const NOT_TOOLS = new Set(
  ('day days week weeks month months year years page pages chapter step steps floor level round season episode part phase ' +
    'sprint iteration lap mile miles km hour hours minute minutes track line item number issue ticket pr port version top ' +
    'the a an my our their team room table seat gate platform row slide question task point points percent times grade ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august ' +
    'september october november december').split(' '),
);

/** Software written in lower case often enough that a bare number after it is its version ("node 22", "postgres 16"). */
const KNOWN_SOFTWARE = new Set(
  ('node nodejs node.js deno bun npm pnpm yarn python python3 pip java jdk openjdk kotlin scala go golang rust cargo ruby rails ' +
    'php laravel symfony perl lua elixir erlang haskell swift xcode dotnet .net c# typescript ts javascript react vue angular ' +
    'svelte next next.js nuxt remix vite webpack eslint prettier jest vitest django flask fastapi spring express postgres ' +
    'postgresql pg mysql mariadb sqlite redis mongo mongodb elasticsearch opensearch kafka rabbitmq cassandra clickhouse ' +
    'nginx apache tomcat docker kubernetes k8s helm terraform ansible ubuntu debian fedora centos rhel alpine macos ios android ' +
    'windows linux kernel gcc clang llvm cmake cuda pytorch torch tensorflow numpy pandas electron tailwind bootstrap jquery ' +
    'grafana prometheus jenkins gradle maven vim neovim emacs helix wordpress drupal unity godot blender openssl').split(' '),
);

function knownSoftware(tool: string): boolean {
  return KNOWN_SOFTWARE.has(tool.toLowerCase());
}

/**
 * A version of a tool: "Node 20", "Postgres 16", "python 3.12", but not "page 3" or "tests 3 times".
 * With an object between the verb and the tool ("moved the monorepo to TypeScript 5.4") only a tool
 * known by name or a dotted version counts: "moved the meeting to Room 4" is no version.
 */
function versionFact(g: Groups): Draft[] {
  const tool = g.tool ?? '';
  const ver = g.ver ?? '';
  if (NOT_TOOLS.has(tool.toLowerCase()) || !endsValue(g.after ?? '')) return [];
  const dotted = /\./u.test(ver);
  const looksLikeSoftware = g.obj
    ? knownSoftware(tool) || dotted
    : /^\p{Lu}/u.test(tool) || /[\d.+#]/u.test(tool) || dotted || knownSoftware(tool);
  if (!looksLikeSoftware) return [];
  const sameTool = g.fromtool === undefined || g.fromtool.trim().toLowerCase() === tool.toLowerCase();
  const replaces = g.from && sameTool && g.from !== ver ? g.from : undefined;
  return [{ subject: tool, attribute: 'version', value: ver, confidence: 0.8, ...(replaces ? { replaces } : {}) }];
}

function versionOfThing(g: Groups): Draft[] {
  const subject = readThing(g.thing ?? '');
  return subject && endsValue(g.after ?? '') ? [{ subject, attribute: 'version', value: g.ver!, confidence: 0.8 }] : [];
}

const TOOL = String.raw`(?<tool>\p{L}[\p{L}\p{N}.+#_-]*)`;
const NUMBER = String.raw`v?\d+(?:\.\d+){0,3}(?:-[0-9a-z.]+)?`;
const VER = String.raw`(?:v(?:ersion)?\s*)?(?<ver>${NUMBER})(?<after>.*)`;
const FROM = String.raw`(?:\s+from\s+(?:(?<fromtool>[^\s\d][^\s]*)\s+)?(?<from>v?\d[\w.-]*))?`;
/** What was upgraded, when the tool comes after "to": "the cluster", "my laptop" (up to three words). */
const OBJECT = String.raw`(?:\s+(?<obj>(?!from\s|to\s)[^\s,;:]+(?:\s+[^\s,;:]+){0,2}?))?`;

export const VERSION_SHAPES: readonly Shape[] = [
  shape('version-to', /\d/, `${CHANGED_BY}(?:upgraded|updated|moved|migrated|bumped|switched|downgraded|went)${OBJECT}${FROM}\\s+to\\s+${TOOL}\\s+${VER}`, 'change', versionFact),
  shape('version-tool-to', /\d/, `${CHANGED_BY}(?:upgraded|updated|bumped|moved|migrated|downgraded)\\s+${TOOL}${FROM}\\s+to\\s+${VER}`, 'change', versionFact),
  shape('version-on', /\d/, `(?:[^\\s,;:]+\\s+){0,3}?(?:(?:now|currently|still)\\s+)?(?:running|using|on|runs|uses|run|use)\\s+${TOOL}\\s+${VER}`, 'since', versionFact),
  shape('version-is', /\d/, `${THING}\\s*(?:'s)?\\s+(?:is${NOW}\\s+(?:on|at)\\s+(?:version|v|release)\\s*|version\\s+is${NOW}\\s+|(?:is|was|got)${NOW}\\s+pinned\\s+(?:to|at)\\s+(?:version\\s+|v)?)(?<ver>${NUMBER})(?<after>.*)`, 'change', versionOfThing),
  shape('version-of', /\d/, `(?:the\\s+)?(?:current\\s+)?version\\s+of\\s+${THING}\\s+is${NOW}\\s+(?<ver>${NUMBER})(?<after>.*)`, 'change', versionOfThing),
];
