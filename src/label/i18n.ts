/**
 * The rater interface's words in Chinese and English. The questions and their guidance are the
 * audit paper's Appendix F (its raters saw them in Chinese; the English is the paper's
 * translation), asked in fixed order D1 → D5, with the D4 strategy follow-up (DT1–DT3). The words
 * themselves are in i18n-en.ts and i18n-zh.ts; every text of the interface comes from them.
 */
import { en } from './i18n-en.js';
import { zh } from './i18n-zh.js';
import type { Dimension, Strategy } from './store.js';

export type UiLang = 'zh' | 'en';
export const UI_LANGS: UiLang[] = ['zh', 'en'];

interface Question {
  dim: Dimension;
  title: string;
  text: string;
  options: Array<{ value: 'true' | 'false' | 'na'; label: string; key: string }>;
}

export interface Words {
  lang: UiLang;
  /** This language's name in itself (the language switch). */
  selfName: string;
  skip: string;
  trialsNav: string;
  langLabel: string;
  shortcutsToggle: string;
  shortcutsToggleHint: string;
  shortcutsOff: string;
  close: string;
  /** Said when A is pressed on a question without N/A; `{q}` is the question's title. */
  naNotHere: string;
  strategyColumn: string;
  /** How a judge's answers read in the review table. */
  answerNames: Record<'true' | 'false' | 'na', string>;
  /** Marks corpus text shown in another language than the interface's (it is data, not translated). */
  asWritten: string;
  /** Under a response whose language is a guess (it left the study language's script). */
  langGuessed: string;
  /** Paradigm names for the trial line. */
  paradigms: Record<string, string>;
  /** Language names for the trial line. */
  langNames: Record<string, string>;
  appTitle: string;
  reviewTitle: string;
  item: string;
  of: string;
  complete: string;
  groundTruth: string;
  titleLabel: string;
  context: string;
  expectedFacts: string;
  factsBasis: string;
  noEntry: string;
  prompt: string;
  response: string;
  image: string;
  textOnly: string;
  zoomHint: string;
  openFull: string;
  questions: Question[];
  dtQuestion: string;
  strategies: Array<{ key: Strategy; label: string }>;
  note: string;
  notePlaceholder: string;
  prev: string;
  next: string;
  nextOpen: string;
  saved: string;
  saving: string;
  notSaved: string;
  allDone: string;
  /** The banner over a simulated response: its mark and what it means. */
  simulated: string;
  simulatedText: string;
  /** The cue under a response whose end is below the window. */
  moreBelow: string;
  shortcuts: string;
  shortcutList: Array<[string, string]>;
  trialMeta: string;
  judges: string;
  judgeColumn: string;
  judgeDisagree: string;
  noDisagreements: string;
  rater: string;
  guide: string;
  guideIntro: string[];
  calibration: string;
  calibrationItems: string[];
  start: string;
}

export const WORDS: Record<UiLang, Words> = { en, zh };

/** Whether `value` names an interface language. */
export const isUiLang = (value: unknown): value is UiLang =>
  (UI_LANGS as readonly unknown[]).includes(value);
