import { use, useEffect, useRef } from 'react';
import {
  isMaskedRefusal,
  isNotFound,
  isParticipantUnreachable,
  isRetryable,
  isApiError,
} from '@/lib/errors/api-error';
import { AuthRecoveryContext } from './auth-recovery-context';
import { ErrorAlert } from './error-alert';
import { ParticipantReachabilityContext } from './participant-reachability-context';
import { NotFoundState, UnreachableNote, type NotFoundStateProps } from './page-state';

export type ErrorStateProps = {
  error: unknown;
  onRetry?: () => void;
  /** What a "not found" answer means here; without it, the error is shown as it came. */
  notFound?: NotFoundStateProps;
  /** The right the section needs, named in a refusal. */
  need?: string;
};

/**
 * A failed section or page, as one of the console's states (docs/design-system.md §States): not
 * found, refused, waiting for the participant, or — for anything else — the error with its code.
 * Retry only where trying again can help.
 */
export function ErrorState({ error, onRetry, notFound, need }: ErrorStateProps) {
  const renderAuthState = use(AuthRecoveryContext);
  const isParticipantReachable = use(ParticipantReachabilityContext);
  const wasReachable = useRef(isParticipantReachable);
  const isUnreachableError = isParticipantUnreachable(error);
  // The participant is back: load again without waiting for a click.
  useEffect(() => {
    if (isParticipantReachable && !wasReachable.current && isUnreachableError) onRetry?.();
    wasReachable.current = isParticipantReachable;
  }, [isParticipantReachable, isUnreachableError, onRetry]);
  if (notFound !== undefined && isNotFound(error)) return <NotFoundState {...notFound} />;
  if (isApiError(error) && isMaskedRefusal(error) && renderAuthState !== undefined) {
    return renderAuthState(error.status, { placement: 'section', ...(need ? { need } : {}) });
  }
  // Quiet only while the banner says why; a lone failed request with the participant up is shown.
  if (isUnreachableError && !isParticipantReachable) {
    return <UnreachableNote {...(onRetry === undefined ? {} : { onRetry })} />;
  }
  const mayHelp = !isApiError(error) || isRetryable(error) || error.status >= 500;
  return <ErrorAlert error={error} {...(mayHelp && onRetry !== undefined ? { onRetry } : {})} />;
}
