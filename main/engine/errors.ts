// Errors that are the caller's mistake, not the engine's: a chat or note that does not exist, a value
// out of range. Hosts answer them as client errors (HTTP 404/400) with the message as written here,
// instead of a 500 carrying whatever SQLite said.
export type UserErrorCode = 'not_found' | 'invalid';

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

export function isUserError(err: unknown): err is UserError {
  return err instanceof UserError;
}
