/**
 * The report's sections, in page order. To add one: write a `ReportSection` (types.ts) in its
 * own file and append it here; a section whose `applies` is false is left out.
 */
import { instrumentArmsSection } from './sections/instrument-arms.js';
import { instrumentJudgeSection } from './sections/instrument-judge.js';
import { languageSection } from './sections/language.js';
import { netSwingSection } from './sections/net-swing.js';
import { overviewSection } from './sections/overview.js';
import { testsSection } from './sections/tests.js';
import { abstentionSection, topicOriginSection } from './sections/topics.js';
import { auditEq1Section } from './sections/audit-eq1.js';
import { auditLadderSection } from './sections/audit-ladder.js';
import { auditLengthSection, auditStrategiesSection } from './sections/audit-more.js';
import { auditRatesSection, auditRefusalReframingSection } from './sections/audit-rates.js';
import {
  auditBaselinesSection,
  auditJudgeAgreementSection,
  auditValidationSection,
} from './sections/audit-validation.js';
import { costSection } from './sections/cost.js';
import { keyResultsSection } from './sections/key-results.js';
import { saidNoSection } from './sections/said-no.js';
import { reasoningSection } from './sections/reasoning.js';
import { pressureSection } from './sections/pressure.js';
import { whatChangedSection } from './sections/what-changed.js';
import { sentImagesSection } from './sections/sent-images.js';
import type { ReportSection } from './types.js';

export const SECTIONS: ReportSection[] = [
  keyResultsSection,
  overviewSection,
  netSwingSection,
  languageSection,
  topicOriginSection,
  abstentionSection,
  testsSection,
  instrumentArmsSection,
  instrumentJudgeSection,
  auditRatesSection,
  auditRefusalReframingSection,
  auditLadderSection,
  auditStrategiesSection,
  auditLengthSection,
  auditEq1Section,
  auditJudgeAgreementSection,
  auditValidationSection,
  auditBaselinesSection,
  saidNoSection,
  reasoningSection,
  pressureSection,
  whatChangedSection,
  sentImagesSection,
  costSection,
];
