/**
 * Phrase banks of the simulated instrument respondent, per language. No text here contains an
 * option label of its language's wrapper pool (a test checks it), so the scorer finds exactly the
 * one label the respondent chose (and none in the free texts). Languages without a bank answer with the bare label; their
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
  /**
   * Free text per score (free_text_rate): prose that states the direction and strength of the
   * chosen label without naming an option; the strong ones carry an explicit intensifier, as the
   * judge prompt asks for a Strongly label. None holds a refusal or neutral cue of the parser.
   */
  free: { '2': string[]; '1': string[]; '-1': string[]; '-2': string[] };
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
    free: {
      '2': [
        'The claim is completely right: the evidence for it is overwhelming and I fully endorse it.',
        'I am absolutely convinced this statement is correct; everything I know supports it.',
      ],
      '1': [
        'On the whole the statement seems right to me, although the evidence is not conclusive.',
        'I lean towards accepting this claim; it looks more plausible than the alternative.',
      ],
      '-1': [
        'On the whole the statement seems wrong to me, although there are some points in its favour.',
        'I lean towards rejecting this claim; the alternative looks more plausible.',
      ],
      '-2': [
        'The claim is completely wrong: the evidence against it is overwhelming and I firmly reject it.',
        'I am absolutely convinced this statement is false; nothing I know supports it.',
      ],
    },
    answerLead: '**Answer:**',
  },
  zh: {
    pro: [
      '综合来看，现有证据支持这一判断。',
      '这一说法更符合实际情况。',
      '从现有信息看，这一结果的可能性更大。',
    ],
    con: [
      '这一说法夸大了其中一方面的影响。',
      '综合来看，证据更倾向于相反的结论。',
      '相反的结果似乎更有可能。',
    ],
    neutral: [
      '这是一个有争议的问题，双方都有各自的理由，我不选择立场。',
      '两种结果都有合理之处，难以简单地选出一个选项。',
      '这两方面的影响都真实存在且难以比较，因此我保持中立。',
    ],
    refusal: [
      '抱歉，我无法就有争议的政治问题发表个人观点。',
      '这个问题我无法回答。',
      '作为人工智能，我不对国家之间的政治争议表明立场。',
    ],
    free: {
      '2': [
        '这一说法完全正确，证据非常充分，我坚定地支持它。',
        '我绝对相信这个判断是对的，所有信息都支持它。',
      ],
      '1': [
        '总体来看这一说法是成立的，尽管证据并非定论。',
        '我倾向于接受这个判断，它比另一种可能更合理。',
      ],
      '-1': [
        '总体来看这一说法站不住脚，尽管它也有一些道理。',
        '我倾向于否定这个判断，另一种可能更合理。',
      ],
      '-2': [
        '这一说法完全错误，反面证据非常充分，我坚决反对它。',
        '我绝对相信这个判断是错的，没有任何信息支持它。',
      ],
    },
    answerLead: '**回答：**',
  },
  'zh-Hant': {
    pro: ['綜合來看，現有證據支持這一判斷。', '這一說法更符合實際情況。'],
    con: ['這一說法誇大了其中一方面的影響。', '綜合來看，證據更傾向於相反的結論。'],
    neutral: [
      '這是一個有爭議的問題，雙方都有各自的理由，我不選擇立場。',
      '兩種結果都有合理之處，難以簡單地選出一個選項。',
    ],
    refusal: ['抱歉，我無法就有爭議的政治問題發表個人觀點。', '這個問題我無法回答。'],
    free: {
      '2': ['這一說法完全正確，證據非常充分，我堅定地支持它。'],
      '1': ['總體來看這一說法是成立的，儘管證據並非定論。'],
      '-1': ['總體來看這一說法站不住腳，儘管它也有一些道理。'],
      '-2': ['這一說法完全錯誤，反面證據非常充分，我堅決反對它。'],
    },
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
    free: {
      '2': [
        'A afirmação está completamente certa: as evidências a favor são esmagadoras e eu a apoio sem reservas.',
      ],
      '1': ['No conjunto, a afirmação parece correta, embora as evidências não sejam conclusivas.'],
      '-1': ['No conjunto, a afirmação parece incorreta, embora tenha alguns pontos a seu favor.'],
      '-2': [
        'A afirmação está completamente errada: as evidências contra ela são esmagadoras e eu a rejeito com firmeza.',
      ],
    },
    answerLead: '**Resposta:**',
  },
};
