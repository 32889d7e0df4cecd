// Errors that are the caller's mistake or a clash, not the engine's: a chat or note that does not exist,
// a value out of range, a job already running. Hosts answer them by their code (the contract's
// ERROR_STATUS: 404, 400, 409) with the message as written here, instead of a 500 carrying whatever
// SQLite said.
import type { ErrorCode } from '../contract/shapes/error-codes.js';

export type UserErrorCode = Exclude<ErrorCode, 'internal'>;

export class UserError extends Error {
  readonly code: UserErrorCode;
  constructor(message: string, code: UserErrorCode = 'invalid') {
    super(message);
    this.name = 'UserError';
    this.code = code;
  }
}

export class NotFoundError extends UserError {
  constructor(message: string) {
    super(message, 'not_found');
    this.name = 'NotFoundError';
  }
}

/** The request is sound but clashes with what is going on (a folder already indexing, a model in use). */
export class ConflictError extends UserError {
  constructor(message: string) {
    super(message, 'conflict');
    this.name = 'ConflictError';
  }
}

export function isUserError(err: unknown): err is UserError {
  return err instanceof UserError;
}
