// "my sister Ana", "our client Acme", "my manager, Bob", "my dog's name is Max": a name in a direct
// relationship with the person speaking. In English and, for the common family and work words, in
// Spanish, Portuguese, French, German, Russian, Chinese, Japanese, Korean and Arabic. Scripts with
// no capitals (Han, kana, Hangul, Arabic) have no name boundary to read, so the name there is the
// next 1–3 characters (Han) or the next word (Hangul, Arabic), up to a particle; see extract.ts.
import type { EntityType } from '../../../core/types.js';
import type { Found } from './code-refs.js';
import { HAN_NAME_CHAR } from './unicase.js';

/** Relation words and the type of what they name. Pets are persons here: a named being with a relationship. */
const PEOPLE = `sister brother mom mum mother dad father parents wife husband partner spouse son daughter kid child baby grandma grandmother
  grandpa grandfather granddaughter grandson aunt uncle cousin niece nephew fiance fiancé fiancee fiancée girlfriend boyfriend
  friend bestie buddy pal roommate flatmate neighbor neighbour colleague coworker co-worker teammate manager boss supervisor
  lead mentor mentee intern assistant cofounder co-founder founder ceo cto doctor dentist therapist coach trainer tutor teacher
  professor advisor adviser lawyer accountant landlord landlady tenant nanny babysitter stepmom stepdad stepson stepdaughter
  in-law sister-in-law brother-in-law mother-in-law father-in-law dog cat puppy kitten pet horse bunny rabbit hamster parrot`;
const ORGS = `client customer employer company startup agency vendor supplier team band church school university college gym club`;
/** Adjectives between "my" and the relation word: "my older sister", "our new client". */
const ADJ = '(?:(?:new|old|former|ex|best|big|little|older|younger|elder|baby|twin|dear|late|lovely|favou?rite|biggest|main|current|first|second)[\\s-]+){0,2}';
const REL_WORDS = [...PEOPLE.split(/\s+/), ...ORGS.split(/\s+/)].filter(Boolean).sort((a, b) => b.length - a.length);
const ORG_WORDS = new Set(ORGS.split(/\s+/).filter(Boolean));
const REL = REL_WORDS.map((w) => w.replace(/[-]/g, '[- ]?')).join('|');
/** A capitalised name of up to three words ("Ana", "Ana Souza", "Acme Corp", "O'Brien"). */
const NAME_WORD = "\\p{Lu}(?:[\\p{L}\\p{M}'’-]|\\.(?=\\p{L}))*";
const NAME = `(${NAME_WORD}(?:[ ](?:${NAME_WORD}|&)){0,3})`;

/**
 * The patterns, built on first need: with the Unicode classes of NAME in each, building them all took
 * ~30 ms of a process's start (every `cairn` command that loads the knowledge pass, a Claude Code
 * hook with nothing new to learn among them), and most texts need none but the English ones.
 */
interface EnglishPatterns {
  /** "my sister Ana", "our client Acme". */
  before: RegExp;
  /** "Ana, my sister", "Acme (our client)". */
  after: RegExp;
}
let english: EnglishPatterns | undefined;
const englishPatterns = (): EnglishPatterns =>
  (english ??= {
    before: new RegExp(
      `\\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\\s+${ADJ}(${REL})(?:['’]s name is|\\s+(?:is\\s+)?(?:called|named)|\\s+is|\\s*,|\\s*[-–—:]|)\\s+${NAME}`,
      'gu',
    ),
    after: new RegExp(`${NAME}\\s*(?:,|\\(|[-–—])\\s*(?:my|our)\\s+${ADJ}(${REL})\\b`, 'gu'),
  });

/**
 * A pattern whose words match with a capital first letter too ("Mi hermana", "Meine Schwester"). Not
 * the `i` flag: under it \\p{Lu} matches lower case as well, and a name has to start with a capital.
 */
function eitherCase(pattern: string): string {
  return pattern.replace(/(^|\||\(\?:|\s)(\p{L})/gu, (_, pre: string, ch: string) => `${pre}[${ch.toLowerCase()}${ch.toUpperCase()}]`);
}

/** Other languages: possessive + relation word → English relation. */
const LATIN_OTHER_WORDS: Array<[string, string]> = [
  ['mi (?:hermana)', 'sister'], ['mi (?:hermano)', 'brother'], ['mi (?:mamá|madre)', 'mother'], ['mi (?:papá|padre)', 'father'],
  ['mi (?:esposa|mujer)', 'wife'], ['mi (?:esposo|marido)', 'husband'], ['mi (?:jefe|jefa)', 'manager'], ['mi (?:amig[oa])', 'friend'],
  ['mi (?:novi[oa])', 'partner'], ['(?:mi|nuestro) cliente', 'client'], ['minha irmã', 'sister'], ['meu irmão', 'brother'],
  ['minha mãe', 'mother'], ['meu pai', 'father'], ['minha esposa|minha mulher', 'wife'], ['meu marido', 'husband'],
  ['meu chefe|minha chefe', 'manager'], ['meu amigo|minha amiga', 'friend'], ['meu cliente|nosso cliente', 'client'],
  ['ma sœur|ma soeur', 'sister'], ['mon frère', 'brother'], ['ma mère', 'mother'], ['mon père', 'father'], ['ma femme', 'wife'],
  ['mon mari', 'husband'], ['mon patron|ma patronne|mon chef|ma cheffe', 'manager'], ['mon ami|mon amie|ma copine|mon copain', 'friend'],
  ['mon client|notre client', 'client'], ['meine Schwester', 'sister'], ['mein Bruder', 'brother'], ['meine Mutter|meine Mama', 'mother'],
  ['mein Vater|mein Papa', 'father'], ['meine Frau', 'wife'], ['mein Mann', 'husband'], ['mein Chef|meine Chefin', 'manager'],
  ['mein Freund|meine Freundin', 'friend'], ['mein Kunde|unser Kunde', 'client'],
  ['(?:моя|мою|моей) (?:сестр[аыеуой]*)', 'sister'], ['(?:мой|моего|моему|моим) (?:брат[аеуом]*)', 'brother'],
  ['(?:моя|мою|моей) (?:мам[аыеуой]*|мать|матери)', 'mother'], ['(?:мой|моего|моему|моим) (?:пап[аыеуой]*|отец|отца|отцу)', 'father'],
  ['(?:моя|мою|моей) (?:жен[аыеуой]*)', 'wife'], ['(?:мой|моего|моему|моим) (?:муж[аеуом]*)', 'husband'],
  ['(?:мой|моего|моему|моим) (?:начальник[аеуом]*|босс[аеуом]*|руководител[ьяюем]*)', 'manager'],
  ['(?:мой|моего|моему|моим) (?:друг[аеуом]*)|(?:моя|мою|моей) (?:подруг[аеиуой]*)', 'friend'],
  ['(?:мой|моего|моему|моим|наш|нашего|нашему|нашим) (?:клиент[аеуом]*)', 'client'],
];
let latinOther: Array<[RegExp, string]> | undefined;
const latinOtherPatterns = (): Array<[RegExp, string]> =>
  (latinOther ??= LATIN_OTHER_WORDS.map(([p, rel]) => [new RegExp(`(?<![\\p{L}])(?:${eitherCase(p)})\\s*,?\\s+${NAME}`, 'gu'), rel]));

/** Han: 我的妹妹小红, 我妹妹小红, 我们的客户… The name is 1–3 Han characters before a particle or a verb-like character. */
const HAN_REL: Array<[string, string]> = [
  ['妹妹|姐姐|姊姊', 'sister'], ['哥哥|弟弟', 'brother'], ['妈妈|母亲', 'mother'], ['爸爸|父亲', 'father'], ['老婆|妻子|太太', 'wife'],
  ['老公|丈夫|先生', 'husband'], ['老板|经理|领导|上司', 'manager'], ['同事', 'colleague'], ['朋友|好友', 'friend'], ['客户', 'client'],
  ['儿子', 'son'], ['女儿', 'daughter'], ['男朋友|女朋友', 'partner'], ['老师', 'teacher'],
];
const HAN_NAME = `(${HAN_NAME_CHAR}(?:${HAN_NAME_CHAR}){0,2})`;
let han: Array<[RegExp, string]> | undefined;
const hanPatterns = (): Array<[RegExp, string]> => (han ??= HAN_REL.map(([w, rel]) => [new RegExp(`(?:我|我们)的?(?:${w})${HAN_NAME}`, 'gu'), rel]));
/** Japanese: 私の妹のさくら / 妹のさくら; the name runs to a particle. */
const JA = new RegExp(`(?:私|僕|俺)の(妹|姉|兄|弟|母|父|妻|夫|上司|同僚|友達|友人)(?:の|は)?([\\p{Script=Katakana}ー]{2,8}|[\\p{Script=Hiragana}]{2,4}(?=さん|ちゃん|くん|が|は|と|に|を|の)|[\\p{Script=Han}]{1,4}(?=さん|ちゃん|くん|が|は|と|に|を|の))`, 'gu');
const JA_REL: Record<string, string> = { 妹: 'sister', 姉: 'sister', 兄: 'brother', 弟: 'brother', 母: 'mother', 父: 'father', 妻: 'wife', 夫: 'husband', 上司: 'manager', 同僚: 'colleague', 友達: 'friend', 友人: 'friend' };
/** Korean: 내 여동생 지은이는…; Arabic: أختي سارة. The name is the next word, particles dropped. */
const KO = new RegExp('(?:내|제|우리)\\s+(여동생|남동생|누나|언니|형|오빠|엄마|아빠|아내|남편|상사|동료|친구|고객)\\s+([\\p{Script=Hangul}]{2,4}?)(?:이는|이가|는|가|이|을|를|와|과|에게|씨|님)?(?=[\\s,.!?]|$)', 'gu');
const KO_REL: Record<string, string> = { 여동생: 'sister', 누나: 'sister', 언니: 'sister', 남동생: 'brother', 형: 'brother', 오빠: 'brother', 엄마: 'mother', 아빠: 'father', 아내: 'wife', 남편: 'husband', 상사: 'manager', 동료: 'colleague', 친구: 'friend', 고객: 'client' };
const AR = new RegExp('(?<![\\p{L}])(أختي|أخي|أمي|أبي|زوجتي|زوجي|مديري|صديقي|صديقتي|زميلي|عميلنا|عميلي)\\s+([\\p{Script=Arabic}]{2,20})', 'gu');
const AR_REL: Record<string, string> = { أختي: 'sister', أخي: 'brother', أمي: 'mother', أبي: 'father', زوجتي: 'wife', زوجي: 'husband', مديري: 'manager', صديقي: 'friend', صديقتي: 'friend', زميلي: 'colleague', عميلنا: 'client', عميلي: 'client' };

const CONFIDENCE = 0.9;
const EN_POSSESSIVE = /\b(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\s/;
const OTHER_POSSESSIVE = /(?<![\p{L}])(?:[Mm]i|[Mm]inha|[Mm]eu|[Nn]osso|[Nn]uestro|[Mm]a|[Mm]on|[Nn]otre|[Mm]eine?|[Uu]nser|[Мм]о[йяеи]\p{L}*|[Нн]аш\p{L}*)\s/u;

function relationType(rel: string): EntityType {
  return ORG_WORDS.has(rel.toLowerCase()) ? 'organization' : 'person';
}

function canonical(rel: string): string {
  const r = rel.toLowerCase().replace(/\s+/g, '-');
  const map: Record<string, string> = { mum: 'mother', mom: 'mother', dad: 'father', 'co-worker': 'colleague', coworker: 'colleague', neighbour: 'neighbor', 'co-founder': 'cofounder', fiancé: 'fiance', fiancée: 'fiancee', adviser: 'advisor' };
  return map[r] ?? r;
}

/** Names in a stated relationship, with the relation word. `name` is trimmed of a trailing possessive or dot. */
export function relationNames(text: string): Found[] {
  const out: Found[] = [];
  const push = (name: string, rel: string, start: number, end: number, type?: EntityType): void => {
    const clean = name.replace(/['’]s$/u, '').replace(/[.'’-]+$/u, '');
    if (clean) out.push({ name: clean, type: type ?? relationType(rel), relation: canonical(rel), confidence: CONFIDENCE, start, end });
  };
  // Cheap tests first: most texts have no possessive these patterns start with.
  if (EN_POSSESSIVE.test(text)) {
    const { before, after } = englishPatterns();
    for (const m of text.matchAll(before)) push(m[2]!, m[1]!, m.index + m[0].length - m[2]!.length, m.index + m[0].length);
    for (const m of text.matchAll(after)) push(m[1]!, m[2]!, m.index, m.index + m[1]!.length);
  }
  if (OTHER_POSSESSIVE.test(text)) {
    for (const [re, rel] of latinOtherPatterns()) for (const m of text.matchAll(re)) push(m[1]!, rel, m.index + m[0].length - m[1]!.length, m.index + m[0].length, 'person');
  }
  if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) {
    for (const [re, rel] of hanPatterns()) for (const m of text.matchAll(re)) push(m[1]!, rel, m.index + m[0].length - m[1]!.length, m.index + m[0].length, rel === 'client' ? 'organization' : 'person');
    for (const m of text.matchAll(JA)) push(m[2]!, JA_REL[m[1]!]!, m.index + m[0].length - m[2]!.length, m.index + m[0].length, 'person');
  }
  if (/\p{Script=Hangul}/u.test(text)) for (const m of text.matchAll(KO)) push(m[2]!, KO_REL[m[1]!]!, m.index, m.index + m[0].length, m[1] === '고객' ? 'organization' : 'person');
  if (/\p{Script=Arabic}/u.test(text)) for (const m of text.matchAll(AR)) push(m[2]!, AR_REL[m[1]!]!, m.index, m.index + m[0].length, m[1]!.startsWith('عميل') ? 'organization' : 'person');
  return out;
}
