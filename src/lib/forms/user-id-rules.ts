import {
  idStringProblem,
  USER_ID_STRING,
  USER_ID_SYMBOLS,
} from '@ledger-console/participant/identifiers';
import { idStringProblemText } from './id-string-problem-text';

/** Why the participant would refuse `id` as a user id (Daml-LF UserId), or undefined. */
export function userIdProblem(id: string): string | undefined {
  return idStringProblemText(idStringProblem(USER_ID_STRING, id), {
    empty: 'Required',
    showsLength: true,
    allowed: `: use ASCII letters, digits and ${USER_ID_SYMBOLS}`,
  });
}
