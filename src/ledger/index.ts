/** The run ledger (`stimkit.ledger` v1): the reader API other stages use. */
export {
  openLedger,
  LedgerReader,
  type LedgerModel,
  type LedgerResult,
  type LedgerRun,
  type LedgerTrial,
  type ResultFilter,
} from './read.js';
export { LEDGER_FORMAT, LEDGER_VERSION, OUTCOMES, type Outcome } from './schema.js';
