import {
  idStringProblem,
  USER_ID_STRING,
  USER_ID_SYMBOLS,
} from '@ledger-console/participant/identifiers';

/** Why the participant would refuse `id` as a user id (Daml-LF UserId), or undefined. */
export function userIdProblem(id: string): string | undefined {
  const problem = idStringProblem(USER_ID_STRING, id);
  switch (problem?.kind) {
    case undefined:
      return undefined;
    case 'empty':
      return 'Required';
    case 'too-long':
      return `At most ${String(problem.maxLength)} characters (this has ${String(problem.length)})`;
    case 'bad-char': {
      const shown = problem.char === ' ' ? 'A space' : `"${problem.char}"`;
      return `${shown} is not allowed: use ASCII letters, digits and ${USER_ID_SYMBOLS}`;
    }
  }
}
