/**
 * The judge prompt: the rubric rendered as system instructions (locked: same rubric, same text)
 * and one user message per trial with the inputs of Appendix E: the subject's ground truth
 * (title, topic, sensitivity tier, expected facts with ids), the prompt the audited model got
 * (language, modality), its response, and the image for image trials.
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { LABEL_FIELDS } from './label.js';
import type { Rubric } from '../study/rubric-schema.js';

/** What the judge is told about one trial. */
export interface JudgeInput {
  trial_id: string;
  entry: {
    id: string;
    title: Record<string, string>;
    topic?: string;
    sensitivity: string;
    expected_facts: Array<{ id: string } & Record<string, unknown>>;
  } | null;
  prompt: { text: string; lang: string; paradigm: string };
  /** The image as a data URL (image trials), or null for text-only trials. */
  image: string | null;
  response: string;
}

const bullets = (items: readonly string[], indent = '  '): string =>
  items.map((i) => `${indent}- ${i}`).join('\n');
const defs = (o: Record<string, string>, indent = '    '): string =>
  Object.entries(o)
    .map(([k, v]) => `${indent}${k}: ${v}`)
    .join('\n');

/** The system message: the rubric in the locked decision order, then the output fields. */
export function renderRubric(rubric: Rubric): string {
  const d = rubric.dimensions;
  const parts = [
    rubric.preamble.trim(),
    `INPUTS\n${rubric.inputs.trim()}`,
    'DECISION ORDER (locked)',
    `(1) D1 ${d.D1.question}\n${bullets(d.D1.guidance)}\n  refusal_reason, one of:\n${defs(d.D1.refusal_reason)}`,
    `(2) D2 ${d.D2.question}\n${bullets(d.D2.guidance)}\n  integrity_failure_type, one of:\n${defs(d.D2.integrity_failure_type)}`,
    `(3) D3 ${d.D3.question}\n${bullets(d.D3.guidance)}`,
    `(4) D4 ${d.D4.question}\n${bullets(d.D4.guidance)}\n  ccp_strategy, any of:\n${defs(d.D4.strategies)}\n  ccp_direction, one of:\n${defs(d.D4.directions)}` +
      (d.D4.calibration.length > 0
        ? `\n  Calibration:\n${bullets(d.D4.calibration.map((c) => `${c.example} → ${c.flagged ? 'flagged' : 'not flagged'} (${c.why})`))}`
        : ''),
    `(5) D5 ${d.D5.question}\n${bullets(d.D5.guidance)}`,
    `(6) D6 ${d.D6.question}`,
    rubric.meta_rules.length > 0 ? `META-RULES\n${bullets(rubric.meta_rules)}` : '',
    `OUTPUT\n${rubric.output.trim()}\nFields, all required: ${LABEL_FIELDS.join(', ')}. Labels with confidence below ${rubric.confidence_threshold} are flagged for review.`,
  ];
  return parts.filter(Boolean).join('\n\n');
}

/** The per-trial user message text (the image, when any, is a separate content part). */
function renderTrialInput(input: JudgeInput): string {
  const e = input.entry;
  const truth = e
    ? [
        `title: ${Object.entries(e.title)
          .map(([l, t]) => `[${l}] ${t}`)
          .join(' / ')}`,
        e.topic ? `topic: ${e.topic}` : '',
        `sensitivity: ${e.sensitivity}`,
        'expected facts:',
        ...e.expected_facts.map((f) => {
          const { id, ...rest } = f;
          const texts = Object.entries(rest)
            .filter(([, v]) => typeof v === 'string')
            .map(([l, v]) => `[${l}] ${String(v)}`);
          return `  - ${id}: ${texts.join(' / ')}`;
        }),
      ]
        .filter(Boolean)
        .join('\n')
    : '(no corpus entry)';
  const modality = input.image ? 'image shown (attached)' : 'text only (no image: D3 is null)';
  return [
    `TRIAL ${input.trial_id}`,
    `SUBJECT GROUND TRUTH\n${truth}`,
    `PROMPT (language: ${input.prompt.lang}; paradigm: ${input.prompt.paradigm}; modality: ${modality})\n<<<PROMPT\n${input.prompt.text}\nPROMPT>>>`,
    `RESPONSE\n<<<RESPONSE\n${input.response}\nRESPONSE>>>`,
  ].join('\n\n');
}

/** OpenAI chat messages for one judged trial; the image with the judge's `image.detail` when set. */
export function judgeMessages(
  rubric: Rubric,
  input: JudgeInput,
  detail?: 'auto' | 'low' | 'high',
): ChatCompletionMessageParam[] {
  const text = renderTrialInput(input);
  const content = input.image
    ? ([
        { type: 'text', text },
        {
          type: 'image_url',
          image_url: detail ? { url: input.image, detail } : { url: input.image },
        },
      ] satisfies ChatCompletionContentPart[])
    : text;
  return [
    { role: 'system', content: renderRubric(rubric) },
    { role: 'user', content },
  ];
}
