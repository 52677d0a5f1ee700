import { resolvePageParticipant } from '@/api/participants';
import { env } from '@/env';

/**
 * Before a `/p/NAME/…` page renders: learns whether NAME is the default participant (so its
 * sign-in is the unprefixed pages'), and whether the console has such a participant at all.
 * Resolves to a sentence for the user when it has not; undefined to go on.
 */
export async function preparePageParticipant(): Promise<string | undefined> {
  const name = env.PARTICIPANT;
  if (name === undefined) return undefined;
  const fleet = await resolvePageParticipant();
  if (!fleet?.isListed) return undefined;
  if (fleet.participants.some((participant) => participant.name === name)) return undefined;
  const names = fleet.participants.map((participant) => participant.name).join(', ');
  return `This console has no participant named "${name}". Its participants: ${names}.`;
}
