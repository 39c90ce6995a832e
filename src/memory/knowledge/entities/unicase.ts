// Names in scripts without capitals (Han, kana, Hangul, Arabic, Hebrew, Thai…), where no case marks
// where a name starts. Found: a name with an honorific ("田中さん", "王老师", "지은씨"), a name
// introduced by "叫" ("我有个朋友叫小明"), and a short quoted name ("「さくら」", "“小红”", "«Анна»",
// "《三体》": a title). Not found: a bare name in running text ("小红明天来"), which needs a
// segmenter; relations.ts finds "我的妹妹小红".
import type { Found } from './code-refs.js';

const UNICASE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Thai}\p{Script=Devanagari}]/u;
/** Characters and words that end a Han name: particles, pronouns, time words ("小红明天来" → 小红; "小明" keeps its 明). */
const HAN_STOP_CHARS = '是在的了和说也都很要会去来把被给对从到跟与就还又不没这那个们吗呢吧啊我你他她它';
const HAN_STOP_WORDS = '明天|今天|昨天|后天|前天|明年|今年|去年|以后|以前|现在|已经|一起';
/** One character of a Han name (a regex fragment). */
export const HAN_NAME_CHAR = `(?!${HAN_STOP_WORDS})(?![${HAN_STOP_CHARS}])\\p{Script=Han}`;
const JA_HONORIFIC = /([\p{Script=Han}\p{Script=Katakana}ー]{1,6})(?:さん|様|先生|ちゃん|くん)/gu;
const ZH_TITLE = new RegExp(`(?<![\\p{Script=Han}])(${HAN_NAME_CHAR}(?:老师|先生|女士|小姐|经理|医生|教授))`, 'gu');
const ZH_CALLED = new RegExp(`(?:叫做|名叫|叫)(${HAN_NAME_CHAR}(?:${HAN_NAME_CHAR}){1,2})`, 'gu');
const KO_HONORIFIC = /([\p{Script=Hangul}]{2,4})\s?(?:씨|님)(?=[\s,.!?이은는가을를께에]|$)/gu;
/** Words that take 님/씨 but are roles, not names: teacher, boss, customer, everyone. */
const KO_ROLES = new Set(['선생', '사장', '부장', '과장', '팀장', '고객', '여러분', '손님', '교수', '의사', '회장', '대표', '아버', '어머']);
const QUOTED = /[“"«「『《‹]([^\s“”"«»「」『』《》‹›.,!?;:]{1,16}(?: [^\s“”"«»「」『』《》‹›.,!?;:]{1,16}){0,2})[”"»」』》›]/gu;
const CYRILLIC_OR_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;

/** Names in caseless scripts, and quoted non-Latin names. */
export function unicaseNames(text: string): Found[] {
  const out: Found[] = [];
  const unicase = UNICASE.test(text);
  if (unicase) {
    for (const m of text.matchAll(JA_HONORIFIC)) out.push({ name: m[1]!, type: 'person', confidence: 0.7, start: m.index, end: m.index + m[0].length });
    for (const m of text.matchAll(ZH_TITLE)) out.push({ name: m[1]!, type: 'person', confidence: 0.65, start: m.index, end: m.index + m[0].length });
    for (const m of text.matchAll(ZH_CALLED)) out.push({ name: m[1]!, type: 'person', confidence: 0.6, start: m.index + m[0].length - m[1]!.length, end: m.index + m[0].length });
    for (const m of text.matchAll(KO_HONORIFIC)) {
      if (!KO_ROLES.has(m[1]!)) out.push({ name: m[1]!, type: 'person', confidence: 0.65, start: m.index, end: m.index + m[0].length });
    }
  }
  if (unicase || CYRILLIC_OR_GREEK.test(text)) {
    for (const m of text.matchAll(QUOTED)) {
      const inner = m[1]!;
      if (!UNICASE.test(inner) && !CYRILLIC_OR_GREEK.test(inner)) continue;
      // 《…》 holds a title (a book, a film, a show); other quotes a name as often as a word.
      out.push({ name: inner, type: 'topic', confidence: m[0].startsWith('《') ? 0.6 : 0.4, start: m.index, end: m.index + m[0].length });
    }
  }
  return out;
}
