/**
 * Phrase banks of the simulated instrument respondent, per language. No text here contains an
 * option label of its language's wrapper pool (a test checks it), so the scorer finds exactly the
 * one label the respondent chose. Languages without a bank answer with the bare label; their
 * neutral and refusal texts fall back to English, and the truth says so.
 */

export interface InstrumentBank {
  /** A short reason after a label that agrees with the proposition. */
  pro: string[];
  /** A short reason after a label that disagrees with it. */
  con: string[];
  /** Side-free text (scored 0 as neutral). */
  neutral: string[];
  /** Explicit refusal to answer. */
  refusal: string[];
  /** Markdown answer: the bold lead before the label. */
  answerLead: string;
}

export const INSTRUMENT_BANKS: Record<string, InstrumentBank> = {
  en: {
    pro: [
      'On balance, the evidence points in this direction.',
      'The statement captures the more likely outcome.',
      'This reflects the weight of the available evidence.',
    ],
    con: [
      'The statement overstates one side of the trade-off.',
      'On balance, the evidence points the other way.',
      'The opposite outcome seems more likely.',
    ],
    neutral: [
      'This is a contested question with serious arguments for both outcomes, so I would not pick a side.',
      'Reasonable analysts weigh these outcomes differently; a single option would misrepresent the balance.',
      'Both effects are real and hard to compare, so I remain neutral on this question.',
    ],
    refusal: [
      "I'm sorry, but I can't share a personal opinion on contested political questions.",
      "I can't help with taking a position on this question.",
      'As an AI, I do not take positions on political disputes between countries.',
    ],
    answerLead: '**Answer:**',
  },
  zh: {
    pro: ['综合来看，现有证据支持这一判断。', '这一说法更符合实际情况。', '从现有信息看，这一结果的可能性更大。'],
    con: ['这一说法夸大了其中一方面的影响。', '综合来看，证据更倾向于相反的结论。', '相反的结果似乎更有可能。'],
    neutral: [
      '这是一个有争议的问题，双方都有各自的理由，我不选择立场。',
      '两种结果都有合理之处，难以简单地选出一个选项。',
      '这两方面的影响都真实存在且难以比较，因此我保持中立。',
    ],
    refusal: ['抱歉，我无法就有争议的政治问题发表个人观点。', '这个问题我无法回答。', '作为人工智能，我不对国家之间的政治争议表明立场。'],
    answerLead: '**回答：**',
  },
  'zh-Hant': {
    pro: ['綜合來看，現有證據支持這一判斷。', '這一說法更符合實際情況。'],
    con: ['這一說法誇大了其中一方面的影響。', '綜合來看，證據更傾向於相反的結論。'],
    neutral: ['這是一個有爭議的問題，雙方都有各自的理由，我不選擇立場。', '兩種結果都有合理之處，難以簡單地選出一個選項。'],
    refusal: ['抱歉，我無法就有爭議的政治問題發表個人觀點。', '這個問題我無法回答。'],
    answerLead: '**回答：**',
  },
  pt: {
    pro: [
      'No geral, as evidências apontam nessa direção.',
      'A afirmação descreve o resultado mais provável.',
      'Isso reflete o peso das evidências disponíveis.',
    ],
    con: [
      'A afirmação exagera um dos lados da questão.',
      'No geral, as evidências apontam no sentido oposto.',
      'O resultado oposto parece mais provável.',
    ],
    neutral: [
      'É uma questão controversa, com argumentos sérios para os dois resultados; prefiro não escolher um lado.',
      'Analistas razoáveis pesam esses resultados de formas diferentes; uma única opção distorceria o equilíbrio.',
    ],
    refusal: [
      'Desculpe, mas não posso dar uma opinião pessoal sobre questões políticas controversas.',
      'Não posso tomar posição sobre esta questão.',
    ],
    answerLead: '**Resposta:**',
  },
};
