/**
 * Words the forced-choice parser needs besides the option labels (which come from the bundle's
 * `wrappers.json`): answer markers ("Answer:", "答案："), explicit neutral answers, refusals, and
 * negations that turn a label inside a sentence into an unclear answer. Per language, matched on
 * the normalized (NFKC, lower-cased) text. A language without its own list uses its base subtag's
 * (`zh-Hant` → `zh`, which lists Traditional forms too) and always the English list as well,
 * since models often answer in English whatever the prompt language.
 *
 * These lists decide only which *zero* reason a response gets, or that a label is negated; they
 * never produce a non-zero score on their own.
 */

/** The cue lists of one language. */
export interface CueSet {
  /** Phrases that introduce the answer, without the colon (the parser adds `:`/`：`). */
  answerMarkers: string[];
  /** An explicit neutral answer. */
  neutral: string[];
  /** A refusal to take a side, or to answer at all. */
  refusal: string[];
  /** Words that negate a label that follows within the same clause. */
  negations: string[];
}

export const CUES: Record<string, CueSet> = {
  en: {
    answerMarkers: [
      'final answer',
      'my answer',
      'answer',
      'response',
      'my response',
      'choice',
      'my choice',
      'option',
      'selected option',
      'verdict',
      'rating',
    ],
    neutral: [
      'neither agree nor disagree',
      'neutral',
      'no opinion',
      'undecided',
      'it depends',
      'both sides',
      'no strong opinion',
      'cannot say',
      "can't say",
      'unsure',
      'not sure',
      'pick a side',
      'take a side',
      'take sides',
      'choose a side',
      'both outcomes',
      'arguments on both',
      'misrepresent the balance',
    ],
    refusal: [
      "i can't",
      'i cannot',
      'i can not',
      "i won't",
      'i will not',
      "i'm not able",
      'i am not able',
      "i'm unable",
      'i am unable',
      'as an ai',
      'i do not have personal',
      "i don't have personal",
      'i do not hold',
      "i don't hold",
      'decline to',
      'refrain from',
      'not appropriate for me',
      'i prefer not',
    ],
    negations: ['not', "n't", 'cannot', 'never', 'neither', 'nor', 'hardly'],
  },
  zh: {
    answerMarkers: [
      '最终答案',
      '我的答案',
      '答案',
      '回答',
      '我的回答',
      '选择',
      '我的选择',
      '選擇',
      '我的選擇',
      '最終答案',
    ],
    neutral: [
      '既不同意也不反对',
      '既不同意也不反對',
      '中立',
      '中性',
      '无法判断',
      '無法判斷',
      '视情况而定',
      '視情況而定',
      '难以判断',
      '難以判斷',
      '不选择立场',
      '不選擇立場',
      '双方都有',
      '雙方都有',
      '难以简单',
      '難以簡單',
      '不选边',
      '不選邊',
    ],
    refusal: [
      '无法回答',
      '無法回答',
      '不能回答',
      '我无法',
      '我無法',
      '我不能',
      '抱歉',
      '作为一个人工智能',
      '作為一個人工智能',
      '作为人工智能',
      '作為人工智能',
      '作为ai',
      '作為ai',
      '不便回答',
      '不予置评',
      '不予置評',
    ],
    negations: ['不', '没', '沒', '未', '非', '并非', '並非'],
  },
  pt: {
    answerMarkers: [
      'resposta final',
      'minha resposta',
      'resposta',
      'escolha',
      'minha escolha',
      'opção',
      'opcao',
    ],
    neutral: [
      'nem concordo nem discordo',
      'neutro',
      'neutra',
      'sem opinião',
      'depende',
      'indeciso',
      'escolher um lado',
      'os dois lados',
      'ambos os lados',
      'dois resultados',
      'distorceria o equilíbrio',
    ],
    refusal: [
      'não posso',
      'nao posso',
      'não consigo',
      'nao consigo',
      'como uma ia',
      'como ia',
      'prefiro não',
      'me abstenho',
      'não tenho opiniões pessoais',
      'não tenho opinião pessoal',
    ],
    negations: ['não', 'nao', 'nunca', 'nem', 'jamais'],
  },
};

/** The cue lists for a language: its own, its base subtag's, and English, merged. */
export function cuesFor(lang: string): CueSet {
  const base = lang.split('-')[0]!.toLowerCase();
  const sets = [CUES[lang], CUES[base], CUES.en].filter(
    (s, i, all): s is CueSet => s !== undefined && all.indexOf(s) === i,
  );
  const merge = (k: keyof CueSet) => [
    ...new Set(sets.flatMap((s) => s[k].map((w) => w.normalize('NFKC').toLowerCase()))),
  ];
  return {
    answerMarkers: merge('answerMarkers'),
    neutral: merge('neutral'),
    refusal: merge('refusal'),
    negations: merge('negations'),
  };
}

/** Where a clause ends: what the parser's negation look-back stops at. */
const CLAUSE_END = /[,.;:!?，。；：！？\n()（）\-–—]/u;
/** Scripts that write words without spaces: a negation there is looked for among the characters. */
const NO_BOUNDARY = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** `test` of one code unit, remembered per code unit (ASCII in a table). */
function charClass(re: RegExp): (c: number) => boolean {
  const ascii = Array.from({ length: 128 }, (_, c) => re.test(String.fromCharCode(c)));
  const seen = new Map<number, boolean>();
  return (c) => {
    if (c < 128) return ascii[c]!;
    let v = seen.get(c);
    if (v === undefined) seen.set(c, (v = re.test(String.fromCharCode(c))));
    return v;
  };
}
const isClauseEnd = charClass(CLAUSE_END);
const isSpace = charClass(/\s/);

/**
 * Whether a negation precedes position `at` in its clause (the text back to the last `CLAUSE_END`
 * character): one of its last three words is a negation word (`not`; `n't` ends one), or one of
 * its last three characters other than white space starts a CJK negation (`不`, `并非`).
 *
 * Asked for positions in increasing order, as labels are found: the text is read once for all of
 * them, keeping only the clause's last three words and characters, so a long clause of labels
 * ("agree agree …", 同意同意…) is not read again for each.
 */
export function negationReader(text: string, cues: CueSet): (at: number) => boolean {
  const words = cues.negations.filter((n) => !NO_BOUNDARY.test(n[0]!));
  const cjk = cues.negations.filter((n) => NO_BOUNDARY.test(n[0]!));
  // The clause's last three words (start, end; the last one's end is -1 while it is open) and
  // the positions of its last three characters other than white space.
  const ws: number[] = [];
  const we: number[] = [];
  const tail: number[] = [];
  let k = 0;
  const read = (to: number): void => {
    for (; k < to; k++) {
      const c = text.charCodeAt(k);
      if (isClauseEnd(c)) {
        ws.length = we.length = tail.length = 0;
        continue;
      }
      const open = we.length > 0 && we[we.length - 1] === -1;
      if (isSpace(c)) {
        if (open) we[we.length - 1] = k;
        continue;
      }
      if (tail.push(k) > 3) tail.shift();
      if (!open && ws.push(k) + we.push(-1) > 6) {
        ws.shift();
        we.shift();
      }
    }
  };
  const negates = (start: number, end: number): boolean =>
    words.some(
      (n) =>
        (end - start === n.length && text.startsWith(n, start)) ||
        (n.startsWith("n'") && end - start >= n.length && text.startsWith(n, end - n.length)),
    );
  return (at) => {
    read(at);
    if (ws.some((s, i) => negates(s, we[i] === -1 ? at : we[i]!))) return true;
    const chars = tail.map((p) => text[p]).join('');
    return cjk.some((n) => chars.includes(n));
  };
}
