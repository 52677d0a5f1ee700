import { identityDataStorage, identityScopedKey } from '@/api/access-token';
import type { StorePlace } from '@/lib/storage/bounded-json-store';

/** One log: a participant's, for one identity, in the storage that identity's data lives in. */
export type ActivityPlace = StorePlace;

/** Where the signed-in identity's log of `participantId` is kept (read the token now). */
export function activityPlace(participantId: string): ActivityPlace {
  return {
    storage: identityDataStorage(),
    key: identityScopedKey('activity.log', participantId),
  };
}
