/**
 * `stimkit batch import`, first pass: every line of every output file is read (as a stream,
 * never a whole file) and checked before anything is recorded — JSON, the provider's output
 * format (E_BATCH_FORMAT), the served model (E_BATCH_MODEL), and the request the line's id names
 * against the request the models file makes now (E_BATCH_REQUEST_CHANGED, naming each setting
 * that differs: from the served model, and with `--requests` from the export's input line,
 * request-diff.ts). A bare trial id (an export before request-named ids) is accepted with a
 * warning.
 */
import { readTextLines } from '../core/fsio.js';
import { StimkitError } from '../core/errors.js';
import type { Trial } from '../bundle/format.js';
import type { ModelSpec } from '../models/schema.js';
import type { Provider } from '../client/providers/index.js';
import type { SentImageStore } from '../client/send-image.js';
import type { EarlierTurn } from '../client/conversation.js';
import { formatOf, idOf, servedOf } from './formats.js';
import { batchRequest, parseCustomId, type BatchRequest } from './request.js';
import { diffBodies, exportedBody, type SettingDiff } from './request-diff.js';
import { checkServedModel, servedMatches } from './served-model.js';

/** What checking the output files needs. */
export interface CheckContext {
  model: ModelSpec;
  provider: Provider;
  modelsFile?: string;
  byId: ReadonlyMap<string, Trial>;
  store: SentImageStore;
  /** The export's input files (`--requests`): each changed setting is named from them. */
  requests?: readonly string[];
  /** The earlier turns of a conversation's trial, from the ledger (turns.ts); none by default. */
  earlierOf?: (trial: Trial, at: { file: string; line: number }) => EarlierTurn[];
}

/** What the check found: each trial's request (with a models file), and the bare ids met. */
export interface Checked {
  requests: Map<string, Omit<BatchRequest, 'body'>>;
  bareIds: number;
}

/** A parsed line of an output file, or null for a blank one (a bad one throws E_BATCH_LINE). */
function parseLine(raw: string, file: string, line: number): Record<string, unknown> | null {
  if (raw.trim() === '') return null;
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      return v as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw StimkitError.fromProblem({
    code: 'E_BATCH_LINE',
    file,
    line,
    message: 'not a JSON object (a file cut short ends in a broken line); nothing recorded',
    fix: 'download the batch output file again, whole, and import it unchanged',
  });
}

/** The lines of an output file, numbered from 1, parsed (blank lines left out), streamed. */
export async function* outputLines(
  file: string,
): AsyncGenerator<{ line: number; raw: string; value: Record<string, unknown> }> {
  let n = 0;
  for await (const raw of readTextLines(file, 'E_BATCH_READ')) {
    n++;
    const value = parseLine(raw, file, n);
    if (value) yield { line: n, raw, value };
  }
}

function formatProblem(c: CheckContext, file: string, line: number, got: Provider['name'] | null) {
  const { model, provider, modelsFile } = c;
  return StimkitError.fromProblem({
    code: 'E_BATCH_FORMAT',
    file,
    line,
    message: `this line is ${got ? `in the ${got} batch output format` : 'in no known batch output format'}, but model "${model.name}" is provider ${provider.name}${modelsFile ? '' : ' (no --models file: taken as provider openai)'}; nothing recorded`,
    expected: provider.batch.outputShape,
    got: got ?? 'another shape',
    fix:
      modelsFile || !got || got === 'openai'
        ? 'import the output file of this model’s batch (the one its batch export file went to), under the --model it was exported for'
        : `pass --models FILE, the models file that names "${model.name}" as provider ${got} (it was exported with one), with the same --model`,
  });
}

/** What the request of a model is made of, as the models file sets it now (for E_BATCH_REQUEST_CHANGED). */
function settingsOf(model: ModelSpec): string {
  const image = model.image
    ? JSON.stringify(model.image)
    : 'none (the bundle’s images as they are)';
  return `api_model ${model.api_model ?? model.name}, sampling ${JSON.stringify(model.sampling)}, extra_body ${JSON.stringify(model.extra_body)}${model.routing ? `, routing ${JSON.stringify(model.routing)}` : ''}, image block ${image}`;
}

/** What differs, setting by setting: from the output line (the served model) and the export's input line. */
async function differences(
  c: CheckContext,
  at: { file: string; line: number; id: string; value: Record<string, unknown> },
  trial: Trial,
): Promise<{ named: SettingDiff[]; exported: boolean }> {
  const named: SettingDiff[] = [];
  const requested = c.model.api_model ?? c.model.name;
  const served = servedOf(c.provider.name, at.value);
  const found = c.requests ? await exportedBody(c.requests, at.id) : undefined;
  if (found) {
    const earlier = c.earlierOf?.(trial, at) ?? [];
    const { body } = await batchRequest(c.provider, trial, c.model, c.store, earlier);
    named.push(...(await diffBodies(found.body, body)));
  }
  if (
    typeof served === 'string' &&
    served !== '' &&
    !servedMatches(requested, served) &&
    !named.some((d) => d.setting.startsWith('model id'))
  )
    named.unshift({
      setting: 'model id (api_model)',
      exported: `${JSON.stringify(served)} (the model that answered)`,
      now: JSON.stringify(requested),
    });
  return { named, exported: found !== undefined };
}

/** Refuse a line whose id names another request than the models file makes for its trial, naming what differs. */
async function checkRequest(
  c: CheckContext,
  at: { file: string; line: number; id: string; value: Record<string, unknown> },
  request: string,
  r: Omit<BatchRequest, 'body'>,
  trial: Trial,
): Promise<void> {
  if (r.sentSha256.startsWith(request)) return;
  const { named, exported } = await differences(c, at, trial);
  const which =
    named.length > 0
      ? `what differs: ${named.map((d) => `${d.setting}: ${d.exported} in the export, ${d.now} now`).join('; ')}`
      : `the trial’s prompt, the api_model, sampling (max_tokens, temperature, …), extra_body or routing${r.sent.length > 0 ? ', or the image block (max_side, format, quality: the image bytes sent)' : ''} changed since the export${c.requests ? (exported ? '' : ' (the --requests files hold no line with this id)') : ' (give the export’s input files with --requests FILE… to have each setting compared)'}`;
  throw StimkitError.fromProblem({
    code: 'E_BATCH_REQUEST_CHANGED',
    file: at.file,
    line: at.line,
    field: c.provider.batch.idField,
    message: `this line answers another request than the models file makes now for trial ${parseCustomId(at.id).trialId}: ${which}; nothing recorded. The models file now sets: ${settingsOf(c.model)}${r.sent.length > 0 ? `; images sent now ${r.sent.map((s) => `${s.width ?? '?'}×${s.height ?? '?'} ${s.mime}`).join(', ')}` : ''}`,
    expected: `request ${r.sentSha256.slice(0, 16)} (this models file)${named.length > 0 ? `: ${named.map((d) => `${d.setting} ${d.now}`).join(', ')}` : ''}`,
    got: `request ${request} (the export)${named.length > 0 ? `: ${named.map((d) => `${d.setting} ${d.exported}`).join(', ')}` : ''}`,
    fix: `import with the models file the batch was exported with${c.modelsFile ? ` (restore its settings of "${c.model.name}" in ${c.modelsFile})` : ''}, or export the batch again and run it`,
  });
}

/** Check every line of `files` (streamed), before anything is recorded. */
export async function checkOutputs(files: readonly string[], c: CheckContext): Promise<Checked> {
  const out: Checked = { requests: new Map(), bareIds: 0 };
  const requested = c.model.api_model ?? c.model.name;
  for (const file of files) {
    const badServed: Array<{ line: number; served: unknown }> = [];
    for await (const { line, value } of outputLines(file)) {
      const format = formatOf(value);
      if (format !== c.provider.name) throw formatProblem(c, file, line, format);
      const served = servedOf(c.provider.name, value);
      if (typeof served === 'string' && served !== '' && !servedMatches(requested, served))
        badServed.push({ line, served });
      const id = idOf(c.provider.name, value);
      if (id === undefined) continue; // listed as unknown when recorded
      const { trialId, request } = parseCustomId(id);
      const trial = c.byId.get(trialId);
      if (!trial) continue;
      if (request === null) out.bareIds++;
      if (!c.modelsFile) continue;
      let r = out.requests.get(trialId);
      if (!r) {
        const earlier = c.earlierOf?.(trial, { file, line }) ?? [];
        const made = await batchRequest(c.provider, trial, c.model, c.store, earlier);
        const { body: _body, ...rest } = made;
        r = rest;
        out.requests.set(trialId, r);
      }
      if (request !== null) await checkRequest(c, { file, line, id, value }, request, r, trial);
    }
    checkServedModel(file, c.model.name, requested, badServed, c.modelsFile);
  }
  return out;
}
