import { use } from 'react';
import { AuthRecoveryContext } from './auth-recovery-context';

/** The app's sign-in-again action for an error of this status, if the app provides one. */
export function AuthRecovery({ status }: { status: number }) {
  const render = use(AuthRecoveryContext);
  return render ? render(status, { placement: 'inline' }) : null;
}
