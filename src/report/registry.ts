/**
 * The report's sections, in page order. To add one: write a `ReportSection` (types.ts) in its
 * own file and append it here; a section whose `applies` is false is left out.
 */
import { overviewSection } from './sections/overview.js';
import type { ReportSection } from './types.js';

export const SECTIONS: ReportSection[] = [overviewSection];
