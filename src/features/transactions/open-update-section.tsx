import { isEmptyScope } from '@/api/updates';
import { OpenUpdateForm } from './open-update-form';
import { useReadScope } from '@/hooks/use-read-scope';

/**
 * The open-an-update search box; nothing for a caller who reads no party (the page below says why:
 * a search that can only fail is no help).
 */
export function OpenUpdateSection({ onOpen }: { onOpen: (updateId: string) => void }) {
  const scope = useReadScope();
  if (isEmptyScope(scope)) return null;
  return <OpenUpdateForm scope={scope} onOpen={onOpen} />;
}
