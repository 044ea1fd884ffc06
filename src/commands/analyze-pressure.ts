/**
 * `stimkit analyze pressure <scores>/pressure.csv [--out DIR] [--outcomes LIST]`: how stances
 * move under follow-up pressure (src/analyze/pressure.ts, pressure-logit.ts). Reads pressure.csv
 * and pressure-conversations.csv beside it; with --out writes `pressure-turns.csv`,
 * `pressure-conversations-summary.csv` and `pressure-logit.csv` into DIR.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { EXIT, StimkitError } from '../core/errors.js';
import { csvText } from '../core/csv.js';
import { writeFileAtomic } from '../core/fsio.js';
import { TOOL } from '../core/tool.js';
import { regressHuman } from '../analyze/format.js';
import { outcomesLine, selectOutcomes } from '../analyze/outcomes.js';
import {
  conversationsCsvRows,
  pressureConversations,
  pressureTurns,
  turnsCsvRows,
  type PressureRate,
} from '../analyze/pressure.js';
import { checkPressureTables } from '../analyze/pressure-check.js';
import {
  logitCsvRows,
  PRESSURE_LOGIT,
  pressureLogits,
  type PressureLogit,
} from '../analyze/pressure-logit.js';
import { simulatedLine, simulatedRows, withSimulatedColumn } from '../analyze/simulated.js';
import { readTable } from '../analyze/table.js';
import type { CommandResult } from '../cli/output.js';

/** Files `--out` writes. */
const PRESSURE_FILES = {
  turns: 'pressure-turns.csv',
  conversations: 'pressure-conversations-summary.csv',
  logit: 'pressure-logit.csv',
} as const;

/** The conversation table the scorer writes beside pressure.csv. */
const CONVERSATIONS_FILE = 'pressure-conversations.csv';

const pct = (v: number | null) => (v === null ? '–' : `${(100 * v).toFixed(1)} %`);
const rateText = (r: PressureRate) =>
  `${r.x}/${r.n} (${pct(r.rate)}${r.rate === null ? '' : `, 95 % CI ${pct(r.lower)}–${pct(r.upper)}`})`;

function readConversations(file: string) {
  const beside = path.join(path.dirname(file), CONVERSATIONS_FILE);
  if (!existsSync(beside))
    throw StimkitError.fromProblem({
      code: 'E_ANALYZE_READ',
      file: beside,
      message: `analyze pressure reads ${CONVERSATIONS_FILE} beside pressure.csv, and there is none`,
      expected: `${CONVERSATIONS_FILE} in the folder of ${file}`,
      got: 'no such file',
      fix: 'pass the pressure.csv of a scores folder (`stimkit score` writes both tables)',
    });
  return readTable(beside);
}

function logitHuman(f: PressureLogit): string {
  if (!f.result) return `logit of changed ~ followup, ${f.model}: no fit: ${f.reason}\n`;
  const head = regressHuman({
    format: 'stimkit.analyze.logit',
    version: 1,
    input: { file: '', sha256: '', rows: f.rows, dropped: 0 },
    params: PRESSURE_LOGIT,
    codings: f.codings,
    result: f.result,
    interactionTest: null,
    warnings: f.warnings,
    simulated: f.simulated,
  });
  return `${f.model}: ${head}\n`;
}

/** Run the analysis on `file` (pressure.csv); write the CSV tables into `out` when given. */
export async function analyzePressure(
  file: string,
  out?: string,
  outcomes?: readonly string[],
): Promise<CommandResult> {
  const table = readTable(file);
  const convTable = readConversations(file);
  checkPressureTables(table, convTable);
  const { table: keptTable, selection } = selectOutcomes(table, 'changed', outcomes);
  const kept = new Set(keptTable.rows);
  const turns = pressureTurns(table.rows, kept);
  const conversations = pressureConversations(convTable.rows);
  const logit = await pressureLogits(table, keptTable);
  if (out) {
    await mkdir(out, { recursive: true });
    for (const [name, rows, input] of [
      [PRESSURE_FILES.turns, turnsCsvRows(turns), table],
      [PRESSURE_FILES.conversations, conversationsCsvRows(conversations), convTable],
      [PRESSURE_FILES.logit, logitCsvRows(logit), table],
    ] as const) {
      const t = withSimulatedColumn(rows, input);
      await writeFileAtomic(path.join(out, name), csvText(t.header, t.rows));
    }
  }
  const summary = {
    format: 'stimkit.analyze.pressure',
    version: 1,
    tool: { ...TOOL },
    input: {
      file,
      sha256: table.sha256,
      rows: table.n,
      conversations: { file: convTable.file, sha256: convTable.sha256, rows: convTable.n },
    },
    params: {
      conf: 0.95,
      interval: 'wilson',
      flips_interval: 't (n − 1 df) over conversations',
      logit: { ...PRESSURE_LOGIT, turns: 'turn >= 2' },
    },
    outcomes: selection,
    simulated: simulatedRows(table),
    turns,
    conversations,
    logit,
  };
  const lines = [
    ...turns
      .filter((t) => t.turn > 1)
      .map(
        (t) =>
          `${t.model} ${t.lang} turn ${t.turn} (${t.followup}): changed ${rateText(t.changed)}, side changed ${rateText(t.side_changed)}, plus ${t.plus}, minus ${t.minus}; no value ${t.not_told}`,
      ),
    ...conversations.map(
      (c) =>
        `${c.model} ${c.lang}: ${c.conversations} conversations, changed ever ${rateText(c.changed_ever)}, final changed ${rateText(c.final_changed)}, flips ${c.flips.mean === null ? '–' : c.flips.mean.toFixed(3)}${c.flips.lower === null ? ` (no interval: ${c.flips.reason})` : ` (95 % CI ${c.flips.lower.toFixed(3)}–${c.flips.upper!.toFixed(3)})`}`,
    ),
  ];
  return {
    summary,
    human:
      simulatedLine(summary.simulated) +
      outcomesLine(selection) +
      `${lines.join('\n')}\n` +
      logit.map(logitHuman).join(''),
    exitCode: EXIT.ok,
  };
}
