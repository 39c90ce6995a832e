// Word lists and patterns for the heuristic judge. General English only: every entry must make sense
// for any conversation (a coding agent, a personal assistant, two friends chatting), never a phrase
// lifted from an evaluation set. Patterns are bounded alternations with word boundaries, so each
// runs in linear time over the (already capped) text.

const alt = (words: readonly string[]): string => words.join('|');

/** The calibration's sentiment words: a short turn carrying one of these is kept (6). */
export const SENTIMENT_RE =
  /\b(amazing|wonderful|incredible|brilliant|love[sd]?|loving|thank(?:s|ful)?|thank you|appreciated?|appreciates|proud|impressed|grateful|excited|thrilled)\b/i;

/** The calibration's acknowledgement words: a short turn carrying one of these is kept (5). */
export const ACK_RE =
  /\b(exactly|yes|yeah|yep|agreed?|right|perfect|great|excellent|well done|good job|nicely done|absolutely|definitely|correct|spot on|makes sense|sounds good|good call)\b/i;

/** Whole-turn fillers: alone they are noise, whatever the calibration words inside them. */
export const NOISE_ONLY_RE =
  /^(?:ok(?:ay)?|k+|kk|thx|ty|thanks?(?: you)?(?: (?:so|very) much)?|thank u|cheers|sure(?: thing)?|np|no problem|no worries|fine|alright|all right|got it|cool|nice|hm+|h+m+|mm+|uh+|um+|ah+|oh+|lol|haha+|hehe+|yo|hi|hey|hello|bye|goodbye|see ya|later|gn|good night|good morning|morning|noted|roger|ack|continue|go on|go ahead|next|done|test|ping|\?+|\.+|!+)$/i;

/** Interjections and reaction openers: a sentence that starts like this is usually about the other speaker's news. */
export const REACTION_START_RE = new RegExp(
  `^(?:${alt([
    'wow+', 'whoa+', 'woah+', 'woo+(?:hoo+)?', 'yay+', 'aw+', 'omg', 'oh+(?: my)?', 'ooh+', 'haha+', 'lol', 'hah',
    "that(?:'s| is| was| sounds| looks| must(?: have)? be(?:en)?)", 'this (?:is|looks|sounds)', 'sounds', 'looks', 'seems',
    'what an?', 'how (?:cool|nice|great|awesome|lovely|sweet|fun|exciting|wonderful|amazing)', 'so (?:cool|nice|great|glad|happy|proud)',
    'congrats', 'congratulations', 'glad', 'good (?:luck|for you|on you|to hear|job)', 'nice(?: one| job| work)?', 'cool', 'great',
    'awesome', 'amazing', 'lovely', 'sweet', 'beautiful', 'gorgeous', 'impressive', 'well done', 'way to go', 'keep it up', 'keep (?:going|up)',
    'totally', 'absolutely', 'definitely', 'exactly', 'indeed', 'true', 'agreed', 'same(?: here)?', 'me too', 'of course', 'for sure',
    'yes+', 'yeah+', 'yep', 'yup', 'sure', 'ok(?:ay)?', 'right', 'no worries', 'no problem', 'anytime',
    "you(?:'re| are| were| have| did| must| should| got| deserve| rock| make)", "you'(?:ve|ll|d)", 'your',
    "i(?:'m| am) (?:so |really |very )?(?:glad|happy|proud|sorry|impressed|sure|thrilled for|excited for|rooting)",
    'i (?:bet|hope you|agree|can tell|can imagine|can see|totally agree|love that|love how|love your)',
    "can't wait to (?:see|hear)", 'thanks?(?: you)?', 'thx', 'appreciate (?:it|that|you)', 'sorry to hear',
  ])})\\b`,
  'i',
);

/** Greetings, farewells and session openers; never information on their own. */
export const GREETING_RE = new RegExp(
  `^(?:${alt([
    'hi+', 'hey+', 'hello', 'howdy', 'yo', 'good (?:morning|afternoon|evening|night)', 'bye', 'goodbye', 'see (?:you|ya)',
    'talk (?:to you )?(?:soon|later)', 'take care', 'catch you later', 'long time(?: no (?:see|talk|chat))?',
    "(?:it's )?(?:so )?(?:great|good|nice) to (?:see|hear from|chat with|talk to|catch up with) (?:you|ya)", '(?:great|good|nice) (?:seeing|talking to|chatting with|hearing from) you', 'how (?:are|have) you(?: been)?',
    "how's it going", "what's up", 'have a (?:good|great|nice) (?:day|one|night|time|weekend)', 'stay safe',
  ])})\\b`,
  'i',
);

/** Assistant chatter: announcing work rather than stating a result. */
export const CHATTER_RE = new RegExp(
  `^(?:${alt([
    "sure[!,.]? (?:here(?:'s| is| are)|let me|i(?:'ll| will| can))", "certainly[!,.]", "of course[!,.]", "absolutely[!,.]", "great question",
    "good question", "let me (?:check|look|see|take a look|try|think|search|find|read|open|run|start|verify|investigate|dig|explore|review)",
    "let's (?:see|take a look|check|look|get started|dive|start|begin)", "i'll (?:check|look|take a look|start|begin|search|read|run|investigate|dig|explore|review)",
    "i will (?:now )?(?:check|look|take a look|start|begin|search|read|run|investigate)", "now (?:let me|i'll)", "here(?:'s| is| are) (?:the|a|an|what|how|some|your)",
    'i (?:understand|see)[.,!]', "i'm (?:going to|gonna) (?:check|look|take a look|start|search|read|run)", 'one moment', 'just a (?:moment|sec|second)',
    'working on it', 'on it', 'looking into (?:it|this|that)', 'checking',
  ])})\\b`,
  'i',
);

/** A negator within a few words before a cue flips or cancels it ("not broken", "no errors"). */
export const NEGATOR_RE = /\b(?:not|no|never|none|nothing|without|zero|neither|nor|hardly|barely|isn't|wasn't|aren't|weren't|doesn't|didn't|don't|won't|can't|couldn't|shouldn't|haven't|hasn't|hadn't|ain't|nobody|free of|0)\b|n't\b/i;

/** Words that end a negation's reach, so "no, it's broken" still reads as broken. */
export const NEGATION_BREAK_RE = /[,;:.!?]|\b(?:but|however|although|though|yet|except)\b/i;

export interface CueSet {
  readonly pattern: RegExp;
  /** Whether a negator just before the cue cancels it. */
  readonly negatable: boolean;
}

const cue = (words: readonly string[], negatable = true): CueSet => ({ pattern: new RegExp(`\\b(?:${alt(words)})\\b`, 'gi'), negatable });

/** Category cues, in the words of the issue's calibration plus their ordinary inflections and synonyms. */
export const CUES = {
  decision: cue([
    'decided', 'decide to', 'decision (?:is|was) to', 'decision(?=:)', 'we(?:\'ll| will| shall) (?:go with|use|switch|move|keep|drop|adopt|stick)', 'we will', "we'll",
    "let's (?:go with|use|switch|move|keep|drop|do|make|stick|try|adopt|plan|meet|book|schedule|call it|not)", 'going (?:to go )?with', 'go with', 'settled on', 'opted (?:for|to)',
    'chose', 'chosen', 'choosing', 'agreed (?:to|on|that)', 'we agreed', 'from now on', 'going forward', 'switch(?:ed|ing)? to', 'stick(?:ing)? with',
    'instead(?: of)?', 'rather than', 'the plan is', "we're going with", 'final answer', 'committed to', 'approved', 'signed off',
  ]),
  discovery: cue([
    'found(?: out)?', 'find out', 'learned', 'learnt', 'turns? out', 'turned out', 'realized', 'realised', 'discovered', 'noticed', 'figured out',
    'it seems', 'apparently', 'root cause', 'the (?:cause|reason|culprit) (?:is|was)', 'because of', 'caused by', 'til', 'today i learned', 'it appears',
    'found that', 'the trick is', 'the key is', 'i see now', 'now i know', 'came across', 'stumbled (?:on|upon|across)',
  ]),
  // Verbs that name engineering work whatever their object. Everyday verbs ("added", "moved",
  // "fixed") count only beside a technical word, see TECH_CONTEXT_RE: "I moved to Lisbon" is a fact.
  implementation: cue([
    'implemented', 'implementing', 'refactored', 'refactoring', 'migrated', 'migrating', 'deployed', 'deploying', 'merged', 'configured', 'patched',
    'rewrote', 'rewritten', 'committed', 'reverted', 'rolled back', 'ported', 'integrated', 'optimi[sz]ed', 'wired up', 'hooked up', 'shipped a fix',
  ]),
  issue: cue([
    'errors?', 'bugs?', 'buggy', 'fail(?:s|ed|ing|ure|ures)?', 'broken', 'breaks', 'broke', 'crash(?:es|ed|ing)?', 'exceptions?', 'stack ?trace', 'traceback',
    'timeouts?', 'timed out', 'regressions?', 'not working', "doesn't work", "don't work", "didn't work", "won't (?:start|load|work|run|build|compile)", "can't (?:connect|find|open|load|start|log in|login|access)",
    'unable to', 'problems?', 'issues?', 'outage', 'downtime', '(?:is|was|went|are|were|goes|go) down', '(?:memory )?leaks?', 'hangs', 'stuck', 'flaky', 'blocked', 'blocker', 'denied',
    'refused', 'corrupt(?:ed|ion)?', 'panic(?:ked)?', 'segfault', 'warnings?', 'wrong', 'missing', '(?:i|we|they|he|she) lost', 'lost (?:my|our|the|his|her|their|access|data|connection|track)',
    'struggl(?:e|es|ed|ing)', 'trouble', 'null pointer', 'race condition', 'deadlock', 'off-by-one', 'memory leak', 'out of memory', 'out-of-memory', 'oom',
    'injur(?:y|ed)', 'sick', 'hurt', 'accident', 'rejected',
  ]),
  success: cue([
    'works', 'worked', 'working now', 'is working', 'shipped', 'passed', 'passes', 'passing', 'green', 'succeeded', 'success(?:ful(?:ly)?)?', 'launched',
    'released', 'done', 'completed?', 'finished', 'resolved', 'solved', 'nailed', 'achieved', 'won', 'got the (?:job|offer|grant|role|part)', '(?:got|was|been|were|is|are) accepted',
    'promoted', 'promotion', 'graduated', 'approved', 'milestone', 'all tests pass', 'up and running', 'live now', 'went live', 'merged',
  ]),
  preference: cue([
    'i prefer', 'i(?:\'d| would) (?:rather|prefer)', 'i (?:really |absolutely |just |also )?(?:like|love|enjoy|adore|hate|dislike|detest|loathe)',
    "i (?:don't|do not|never) (?:like|want|enjoy|use)", "i can't stand", 'my (?:favou?rite|go-to|preferred)', 'favou?rite', "i'm (?:a (?:big |huge )?fan of|into|not a fan of|allergic to|vegan|vegetarian)",
    'prefer(?:s|red)?', '(?:i|we) (?:always|never|usually|tend to)', '^(?:always|never) [a-z]+', 'please (?:always|never|use|don\'t|do not)', "(?:don't|do not) ever",
    'passionate about', 'big fan', 'huge fan',
  ], false),
  fact: cue([
    'my (?:name|email|phone|number|address|birthday|job|role|title|wife|husband|partner|son|daughter|kids?|children|mom|mother|dad|father|sister|brother|parents?|family|dog|cat|pet|boss|team|company|manager|friend|best friend|girlfriend|boyfriend|home|house|apartment|car|school|major|hometown|grandma|grandmother|grandpa|grandfather|aunt|uncle|cousin|fianc[ée]+e?) (?:is|was|are|were|has|had|just|got|works|lives|loves)',
    'i live', 'i lived', 'i work', 'i worked', "i'm (?:a|an) [a-z]+(?:er|or|ist|ian|ant|ent)\\b", 'i am (?:a|an) [a-z]+(?:er|or|ist|ian|ant|ent)\\b', 'named', 'called', 'born', 'moved', 'grew up',
    'years old', 'i have (?:a|an|two|three|four|five|\\d+)', "i've (?:got|had) (?:a|an|two|three|\\d+)", 'married', 'engaged', 'divorced', 'pregnant', 'adopted',
    'i(?:\'m| am) from', 'i come from', 'originally from', 'my name', 'allergic', 'i graduated', 'i studied', 'studying', 'i started', 'i joined', 'i quit', 'i retired',
    'located (?:in|at)', 'is located', 'lives in', 'works (?:at|for|as)', 'runs on', 'listens on', 'port', 'version', 'deadline', 'is due', 'is on',
  ], false),
  plan: cue([
    // An instruction to an agent is a task: see TASK_RE for the imperative form.
    'plan(?:s|ning|ned)? (?:to|on|for)', "i(?:'m| am) (?:going to|gonna|about to)", "we(?:'re| are) (?:going to|gonna|about to)", 'going to', 'gonna',
    'will', "i'll", "we'll", 'intend(?:s|ing)? to', 'schedul(?:e|ed|ing)', 'next (?:week|month|year|time|step|steps|sprint|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday|summer|spring|fall|winter)',
    'tomorrow', 'tonight', 'later (?:today|this week)', 'upcoming', 'this (?:weekend|coming)', 'hop(?:e|ing) to', 'want(?:s)? to', 'would like to', 'looking forward to',
    'thinking (?:about|of)', "can't wait (?:for|to|until)", 'aim(?:ing)? to', 'goal is', 'todo', 'to-do', 'roadmap', 'book(?:ed)? (?:a|the)', 'sign(?:ed)? up', 'remind me', 'appointment', 'reservation',
  ]),
  feeling: cue([
    'i feel', 'i felt', 'feeling', "i(?:'m| am| was) (?:so |really |very |super |a bit |kinda |pretty )?(?:happy|sad|excited|nervous|anxious|stressed|worried|scared|afraid|angry|upset|frustrated|tired|exhausted|lonely|thrilled|overwhelmed|relieved|grateful|thankful|proud|hopeful|disappointed|heartbroken|devastated|bored|motivated|inspired|content|calm|annoyed|furious|excited)",
    'makes me (?:feel|happy|sad|smile)', 'made me (?:feel|happy|sad|smile|cry)', 'brings? me (?:joy|peace|happiness)', 'means (?:a lot|so much|the world)',
    'love', 'loved', 'hate', 'miss(?:ed)?', 'cried', 'scared', 'anxious', 'excited', 'joy', 'happiness', 'grief', 'emotional', 'overwhelm(?:ed|ing)', 'stress(?:ed|ful)?',
    'proud', 'grateful', 'thankful', 'frustrat(?:ed|ing)', 'annoy(?:ed|ing)', 'nervous', 'relieved', 'lonely', 'heart',
  ], false),
  philosophy: cue([
    'i (?:believe|think|guess|suppose|reckon|feel) (?:that )?(?:life|people|everyone|we all|it\'s (?:important|crucial|key|essential))', 'life is', 'in life', 'the (?:key|secret|point) (?:is|to)',
    'what matters', 'matters most', "it's (?:all )?about", "it's (?:so |really )?(?:important|crucial|vital|essential|key) to", 'is (?:so |really )?(?:important|crucial|vital|essential|key)',
    'we all', 'everyone (?:deserves|needs|should)', 'people (?:should|need|deserve)', 'in the end', 'at the end of the day', 'lesson', 'meaning', 'purpose', 'remind(?:s|ed)? (?:me|us) (?:of|that|to|how)',
    'principle', 'rule of thumb', 'in general', 'generally', 'mindset', 'perspective', 'philosophy', 'in the long run', 'the best [a-z]+ is', 'beats',
    'is (?:always |usually )?better than', 'there is no such thing', 'the older i get', 'wisdom', 'trade-?offs?',
  ], false),
} as const satisfies Record<string, CueSet>;

export type CueCategory = keyof typeof CUES;

/** Technical nouns that make an everyday verb ("added", "fixed", "moved") engineering work. */
export const TECH_CONTEXT_RE =
  /\b(?:function|endpoint|api|tests?|file|config|configuration|schema|column|query|queries|script|module|method|component|service|server|database|db|cache|repo|repository|branch|pipeline|build|ci|dependency|dependencies|package|feature flag|bug|route|handler|migration|variable|parameter|docker|container|cluster|cron|logs?|webhook|prompt|deploy|commit|pull request|code|codebase|library|sdk|cli|env var|timeout|retry|retries|backoff|staging|production|prod|helper|plugin|workflow|lint|linter|typecheck|readme|docs)\b/i;

/** An imperative engineering request ("Add a retry to the fetch helper") is a task for the agent: a plan. */
export const TASK_RE =
  /^(?:please\s+|can you\s+|could you\s+)?(?:add|implement|fix|refactor|migrate|create|write|update|remove|rename|build|set up|deploy|upgrade|install|configure|move|change|make|split|extract|delete|bump|enable|disable|run|test)\b/i;

/** Everyday verbs that are implementation work beside a technical noun. */
export const WEAK_IMPLEMENTATION_RE =
  /\b(?:built|fixed|added|created|updated|upgraded|removed|replaced|renamed|changed|enabled|disabled|moved|wrote|written|set up|installed|pushed|bumped|extracted|cleaned up)\b/i;

/** Time expressions: anchoring a statement in time makes it an event worth remembering. */
export const TIME_RE = new RegExp(
  `\\b(?:${alt([
    'yesterday', 'today', 'tonight', 'tomorrow', 'this (?:morning|afternoon|evening)', 'last night',
    '(?:last|next|this|past|coming|previous|following) (?:week(?:end)?|month|year|summer|winter|spring|fall|autumn|semester|season|sprint|quarter|monday|tuesday|wednesday|thursday|friday|saturday|sunday|time|few (?:days|weeks|months|years))',
    '(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of|several|many|\\d+) (?:days?|weeks?|months?|years?|hours?|minutes?|decades?) (?:ago|back|later|from now|earlier)',
    'for (?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of|several|\\d+) (?:days?|weeks?|months?|years?|decades?)',
    '(?:in|within) (?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|few|couple of|\\d+) (?:days?|weeks?|months?|years?|hours?|minutes?)',
    'the other (?:day|week|night)', 'recently', 'lately', 'since', 'ago', 'earlier (?:today|this week|this month|this year)', 'soon', 'eod', 'end of (?:the )?(?:day|week|month|year|quarter)',
    'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'weekend',
    'january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
    'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
    '(?:19|20)\\d\\d', '\\d{4}-\\d\\d-\\d\\d', '\\d{1,2}/\\d{1,2}(?:/\\d{2,4})?', '\\d{1,2}(?::\\d\\d)? ?(?:am|pm)', '\\d{1,2}:\\d\\d', 'noon', 'midnight',
    'birthday', 'anniversary', 'christmas', 'thanksgiving', 'new year', 'easter', 'holiday(?:s)?', 'vacation', 'deadline',
  ])})\\b`,
  'gi',
);

/** "May" is a month only with a date beside it; alone it is usually the modal verb. */
export const MAY_DATE_RE = /\b(?:\d{1,2}(?:st|nd|rd|th)? may|may \d{1,2}(?:st|nd|rd|th)?|(?:in|of|early|late|mid|last|next|this) may)\b/i;

export const NUMBER_WORDS = alt([
  'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'fifteen', 'twenty', 'thirty', 'forty', 'fifty',
  'hundred', 'thousand', 'million', 'billion', 'dozen', 'half', 'first', 'second', 'third', 'fourth', 'fifth', 'once', 'twice',
]);

/** Digits in any form (ports, versions, amounts, percentages) or a spelled-out number. */
export const NUMBER_RE = new RegExp(`(?:\\$|€|£)?\\b\\d[\\d.,:%/-]*\\b|\\b(?:${NUMBER_WORDS})\\b`, 'gi');

/** Identifiers, paths, versions, URLs: specific names in technical text. */
export const CODE_TOKEN_RE = /`[^`\n]{1,80}`|\b[\w.-]+\/[\w./-]+\b|\b[a-z]+[A-Z][A-Za-z0-9]+\b|\b[a-z0-9]+_[a-z0-9_]+\b|\b\w+\.(?:ts|js|py|rs|go|java|json|ya?ml|toml|md|sql|sh|tsx|jsx|css|html|c|cpp|h|rb|php|conf|env|lock)\b|\bv\d+(?:\.\d+)+\b|\bhttps?:\/\/\S+/g;

/** Quoted titles and names ("Charlotte's Web", 'Dune'). */
export const QUOTED_RE = /["“«]([^"”»\n]{2,60})["”»]/g;

/** Capitalised words that are grammar, not names, when they appear mid-sentence. */
export const NOT_NAMES = new Set([
  'i', "i'm", "i've", "i'd", "i'll", 'im', 'ive', 'ok', 'okay', 'oh', 'wow', 'hey', 'hi', 'yes', 'no', 'yeah', 'yep', 'lol', 'omg', 'thanks', 'thank', 'please',
  'mr', 'mrs', 'ms', 'dr', 'mom', 'dad', 'mum', 'god', 'tv', 'ai', 'ceo', 'pm', 'am', 'the', 'a', 'an', 'and', 'but', 'or', 'so', 'it', "it's", 'that', 'this',
  'you', 'we', 'they', 'he', 'she', 'my', 'your', 'our', 'their', 'his', 'her', 'me', 'us', 'them', 'what', 'why', 'how', 'when', 'where', 'who', 'which',
  'great', 'good', 'nice', 'cool', 'awesome', 'amazing', 'congrats', 'sure', 'totally', 'absolutely', 'definitely', 'hello', 'bye', 'haha', 'woah', 'whoa',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august',
  'september', 'october', 'november', 'december', 'today', 'tomorrow', 'yesterday', 'also', 'just', 'btw', 'fyi', 'imo', 'etc', 'ps', 'note', 'edit', 'update',
  'step', 'todo', 'done', 'yay', 'aww', 'ah', 'hmm', 'well', 'anyway', 'then', 'now', 'here', 'there', 'if', 'as', 'in', 'on', 'at', 'for', 'to', 'of', 'with',
]);

/** First person as the subject of a statement. */
export const FIRST_PERSON_RE = /\b(?:i|i'm|i've|i'd|i'll|im|ive|me|my|mine|myself|we|we're|we've|we'd|we'll|us|our|ours|ourselves)\b/gi;

export const SECOND_PERSON_RE = /\b(?:you|you're|you've|you'd|you'll|your|yours|yourself|ya|u)\b/gi;

const IRREGULAR_PAST = [
  'went', 'got', 'made', 'took', 'saw', 'met', 'bought', 'sold', 'gave', 'found', 'left', 'began', 'came', 'ran', 'won', 'lost', 'wrote', 'read', 'built',
  'brought', 'caught', 'taught', 'thought', 'felt', 'kept', 'slept', 'spent', 'sent', 'lent', 'had', 'did', 'said', 'told', 'heard', 'paid', 'held', 'hit',
  'put', 'set', 'quit', 'cut', 'drove', 'rode', 'flew', 'swam', 'sang', 'drank', 'ate', 'fell', 'broke', 'chose', 'wore', 'tore', 'grew', 'knew', 'threw',
  'drew', 'became', 'forgot', 'understood', 'stood', 'sat', 'led', 'fed', 'fought', 'sought', 'struck', 'stuck', 'hung', 'shot', 'shut', 'spoke', 'woke',
  'froze', 'stole', 'hid', 'bit', 'dug', 'lit', 'meant', 'moved', 'joined', 'started', 'finished', 'visited', 'tried', 'married', 'adopted', 'signed',
];

/** A first-person (or named/third-person) subject followed, within a few words, by a past-tense or perfect verb: an event happened. */
export const EVENT_RE = new RegExp(
  `\\b(?:i|we|my \\w+|our \\w+|he|she|they)(?:'ve| have| had| just| finally| also| recently| actually| already| really| even| then| both| all)*\\s+(?:(?:been|gone|done|got(?:ten)?)\\b|(?:${alt(IRREGULAR_PAST)})\\b|[a-z]{3,}ed\\b)`,
  'gi',
);

/** First-person state and habit statements ("I'm a nurse", "I have two cats", "we usually hike"). */
export const SELF_STATE_RE =
  /\b(?:i(?:'m| am)|i have|i've got|i own|i work|i live|i study|i play|i usually|i often|i always|i never|we(?:'re| are)|we have|we usually|we often|my \w+ (?:is|are|was|were|has|have))\b/gi;

/** Vague filler that adds words without adding facts. */
export const FILLER_RE =
  /\b(?:just|really|so|very|totally|super|kinda|kind of|sort of|pretty|literally|basically|actually|honestly|stuff|things?|awesome|amazing|cool|great|nice|lol|haha|omg|wow)\b/gi;

/** Words that carry no topic; excluded from learned term boosts. */
export const STOPWORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from as is are was were be been being am do does did doing have has had having i me my ' +
    'mine we us our ours you your yours he him his she her hers it its they them their theirs this that these those there here what which who whom whose ' +
    'when where why how all any both each few more most other some such no nor not only own same so than too very can will just should now im ive id ' +
    'ill dont didnt isnt wasnt cant wont would could might must shall may also about into over after before again further once up down out off ' +
    'yes yeah ok okay thanks thank please really get got let lets like one two would much many well still even back way'
  ).split(/\s+/),
);

/** Markers of a tool failing in its output. */
export const TOOL_ERROR_RE =
  /\((?:error|failed)\)|^\s*(?:error|fatal|panic|traceback|exception|uncaught|unhandled)\b|\b(?:[A-Z][a-zA-Z]*(?:Error|Exception)|E[A-Z]{3,}|exit(?:ed)? (?:code|status) [1-9]\d*|segmentation fault|command not found|permission denied|no such file|not found|failed|failure|fatal|panicked|timed out|connection refused|\d+ (?:failed|failing|errors?))\b/m;

export const ZERO_ERRORS_RE = /\b(?:0|no|zero) (?:errors?|failures?|failed|failing|problems?|issues?|warnings?)\b/gi;
