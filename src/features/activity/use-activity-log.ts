import { useCallback } from 'react';
import { useStoredList } from '@/hooks/use-stored-list';
import { activityPlace } from './activity-place';
import { activityStore, writeActivity } from './activity-store';

// Only the views that show the log need this hook and the stored-list subscription behind it.
/**
 * The signed-in identity's activity log on `participantId`, newest first, shared with every view
 * and other tabs. Kept as long as that identity's sign-in (see identityDataStorage).
 */
export function useActivityLog(participantId: string) {
  const place = activityPlace(participantId);
  const { storage, key } = place;
  const entries = useStoredList(activityStore, place);
  const clear = useCallback(() => {
    writeActivity({ storage, key }, []);
  }, [storage, key]);
  return { entries, clear };
}
