export type StoreErrorCode =
  | 'INVALID_OPTIONS'
  | 'STORE_LOCKED'
  | 'JOURNAL_CORRUPT'
  | 'SNAPSHOT_CORRUPT'
  | 'INVALID_MUTATION'
  | 'INVALID_INDEX_KEYS'
  | 'UNKNOWN_INDEX'
  | 'NESTED_TRANSACTION'
  | 'STORE_CLOSED'
  | 'STORE_FAILED';

/** A failure raised by the store itself; errors thrown by a transaction's `work` are never wrapped. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}
