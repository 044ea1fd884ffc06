/** The run ledger (`stimkit.ledger` v1): the reader API other stages use. */
export { openLedger } from './read.js';
