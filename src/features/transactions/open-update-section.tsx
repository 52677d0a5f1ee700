import { Alert } from '@mantine/core';
import { isEmptyScope } from '@/api/updates';
import { OpenUpdateForm } from './open-update-form';
import { useReadScope } from './use-read-scope';

/** The open-an-update form, or why the caller cannot read any transaction. */
export function OpenUpdateSection({ onOpen }: { onOpen: (updateId: string) => void }) {
  const scope = useReadScope();
  if (isEmptyScope(scope)) {
    return (
      <Alert color="yellow" title="You cannot read any transactions">
        Reading transactions needs a CanReadAs or CanActAs right for a party (or CanReadAsAnyParty),
        and your user has none. A participant administrator can grant them on the Users page.
      </Alert>
    );
  }
  return <OpenUpdateForm scope={scope} onOpen={onOpen} />;
}
