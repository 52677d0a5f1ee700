import { isEmptyScope } from '@/api/updates';
import { OpenUpdateForm } from './open-update-form';
import { useReadScope } from './use-read-scope';
import { NoReadScopeState } from './no-read-scope-state';

/** The open-an-update form, or why the caller cannot read any transaction. */
export function OpenUpdateSection({ onOpen }: { onOpen: (updateId: string) => void }) {
  const scope = useReadScope();
  if (isEmptyScope(scope)) {
    return <NoReadScopeState title="You may not read any transactions" />;
  }
  return <OpenUpdateForm scope={scope} onOpen={onOpen} />;
}
