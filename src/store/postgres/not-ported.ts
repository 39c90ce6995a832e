// Marks a Store operation the PostgreSQL backend does not offer yet (the port is in progress).
import { CairnError, ERROR_CODES } from '../../core/errors.js';

export function notPorted(what: string): CairnError {
  return new CairnError(ERROR_CODES.INTERNAL, `The PostgreSQL store does not implement ${what} yet`);
}
