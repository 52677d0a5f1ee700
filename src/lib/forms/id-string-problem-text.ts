import type { IdStringProblem } from '@ledger-console/participant/identifiers';

/** How a form words the problems of one kind of identifier string. */
export type IdStringWords = {
  /** The message for an empty value. */
  empty: string;
  /**
   * What the value is ("user id"), named in the other messages; left out where the field's own
   * label says it.
   */
  noun?: string;
  /** Whether "too long" also says how long the value is. */
  showsLength: boolean;
  /** What follows "… is not allowed" for a refused character: which characters are. */
  allowed: string;
};

/**
 * A form's message for why the participant would refuse an identifier string (a user id, a party
 * id), from the participant's structured problem; undefined for none.
 */
export function idStringProblemText(
  problem: IdStringProblem | undefined,
  { empty, noun, showsLength, allowed }: IdStringWords,
): string | undefined {
  switch (problem?.kind) {
    case undefined:
      return undefined;
    case 'empty':
      return empty;
    case 'too-long': {
      const limit = `${noun === undefined ? 'At most' : `A ${noun} has at most`} ${String(problem.maxLength)} characters`;
      return showsLength ? `${limit} (this has ${String(problem.length)})` : limit;
    }
    case 'bad-char': {
      const shown = problem.char === ' ' ? 'A space' : `"${problem.char}"`;
      return `${shown} is not allowed${noun === undefined ? '' : ` in a ${noun}`}${allowed}`;
    }
  }
}
