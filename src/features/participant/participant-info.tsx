import { Text } from '@mantine/core';
import { useSuspenseQueries } from '@tanstack/react-query';
import { participantQueries } from '@/api/participant';
import { PropertyList } from '@/components/property-list';
import { Identifier } from '@/components/identifier';

/** The participant's API version and id. Reads with suspense: render inside a QueryBoundary. */
export function ParticipantInfo() {
  const [version, participantId] = useSuspenseQueries({
    queries: [participantQueries.version(), participantQueries.participantId()],
  });

  return (
    <PropertyList
      items={[
        {
          label: 'API version',
          value: (
            <Text ff="monospace" size="sm">
              {version.data.version}
            </Text>
          ),
        },
        {
          label: 'Participant id',
          value: (
            <Identifier value={participantId.data} label="participant id" isShortened={false} />
          ),
        },
      ]}
    />
  );
}
