/**
 * The viewer's page shell: the header with the bundle and the navigation, and — when any response
 * comes from a simulated respondent — a SIMULATED banner on every page.
 */
import { html, type Html } from '../core/html.js';
import type { BundleData } from '../label/bundle.js';
import { HEAD_LINKS } from '../label/markup.js';
import type { TextSource } from './responses.js';
import type { ScoreRow } from './scores.js';

export interface ViewData {
  bundle: BundleData;
  scores: ScoreRow[] | null;
  /** Where the response texts came from (a scores folder's ledger or responses file), if anywhere. */
  responses?: TextSource | null;
  /** How many of the scored responses have a text there. */
  withText?: number;
  /** How many responses are simulated, and how many were labelled by a simulated judge. */
  simulated?: { responses: number; judged: number };
}

function banner(data: ViewData): Html | null {
  const sim = data.simulated;
  if (!sim || (sim.responses === 0 && sim.judged === 0)) return null;
  const n = data.scores?.length ?? 0;
  const parts = [
    sim.responses
      ? `${sim.responses} of ${n} responses come from simulated respondents (stimkit's sim provider), not from models; their rows are marked SIM.`
      : '',
    sim.judged ? `${sim.judged} of ${n} were labelled by a simulated judge.` : '',
  ].filter(Boolean);
  return html`<p class="banner sim" role="note"><strong>SIMULATED DATA</strong> · ${parts.join(' ')}</p>`;
}

function changed(data: ViewData): Html | null {
  const w = changedWarning(data);
  if (!w) return null;
  return perResponse(data)
    ? html`<p class="banner" role="note" id="changed"><strong>FILE CHANGED</strong> · ${w}</p>`
    : html`<p class="banner warn" role="note" id="changed"><strong>CHANGED SINCE SCORING</strong> · ${w}</p>`;
}

/** True when the scores record each response's sha256, so each is checked on its own. */
const perResponse = (data: ViewData): boolean =>
  data.scores?.some((r) => !!r.scored_sha256) ?? false;

/** Said when the texts' file is not the one the scores were made from (both sha256 named). */
function changedWarning(data: ViewData): string | null {
  const src = data.responses;
  if (!src?.changed) return null;
  const what = src.kind === 'ledger' ? 'run ledger' : 'responses file';
  const file = `the ${what} has changed since these scores were made (sha256 ${src.changed.recorded.slice(0, 12)}… recorded in score.json, ${src.changed.now.slice(0, 12)}… now)`;
  return perResponse(data)
    ? `${file}: each response shown is checked against the sha256 of the text scored, and one whose text differs is marked on its own`
    : `${file}: a response shown may have been edited since it was scored, and its labels may be of the old text (these scores record no sha256 per response; score again to have each response checked)`;
}

/** The line `stimkit view` prints when it starts (and the warning, if any). */
export function startupLine(data: ViewData): string {
  const b = data.bundle;
  const scores = data.scores;
  const texts = !scores
    ? ''
    : data.responses
      ? `, ${scores.length} responses (${data.withText ?? 0} with text in ${data.responses.file}, read as pages show them)`
      : `, ${scores.length} responses (no text: the scores name no ledger or responses file; give one with --ledger)`;
  const warning = changedWarning(data);
  return `stimkit view: ${b.entries.size} entries, ${b.trials.length} trials${texts} (read-only)${warning ? `\n  warning: ${warning}` : ''}`;
}

/** The page shell with the viewer's navigation; `script` adds /static/view.js. */
export function viewShell(
  data: ViewData,
  title: string,
  here: string,
  body: Html,
  script = false,
): Html {
  const nav = [
    ['/', 'Entries'],
    ['/ladders', 'Variant ladders'],
    ['/trials', data.scores ? 'Responses' : 'Trials'],
  ].map(
    ([href, label]) =>
      html`<a href="${href}"${href === here ? html` aria-current="page"` : null}>${label}</a>`,
  );
  const study = data.bundle.study.title || data.bundle.study.id;
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · stimkit view</title>${HEAD_LINKS}</head><body><a class="skip" href="#main">Skip to content</a>
<header class="bar"><h1>stimkit view · <bdi>${study}</bdi></h1><nav aria-label="pages">${nav}</nav>
<span class="meta">bundle ${data.bundle.digest.slice(0, 12)}… (read-only)</span></header>${banner(data)}${changed(data)}
<main id="main"><h2 class="page">${title}</h2>${body}</main>${script ? html`<script src="/static/view.js"></script>` : null}</body></html>`;
}
