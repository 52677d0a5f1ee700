import { Badge, Code, Stack, Text } from '@mantine/core';
import type { User } from '@/api/users';
import { Identifier } from '@/components/identifier';
import { IsolatedText } from '@/components/isolated-text';
import { PropertyList } from '@/components/property-list';
import { toAnnotationRows } from '@/lib/forms/annotations-rules';

export type UserProfileViewProps = {
  user: User;
};

/** The profile for a caller who may look but not change it (a user viewing itself). */
export function UserProfileView({ user }: UserProfileViewProps) {
  const annotations = toAnnotationRows(user.metadata?.annotations);
  return (
    <PropertyList
      items={[
        {
          label: 'Primary party',
          value: user.primaryParty ? (
            <Identifier value={user.primaryParty} label="primary party" kind="party" />
          ) : (
            <Text size="sm" c="dimmed">
              None
            </Text>
          ),
        },
        {
          label: 'Status',
          value: user.isDeactivated ? (
            <Badge color="gray">Deactivated</Badge>
          ) : (
            <Badge color="green">Active</Badge>
          ),
        },
        {
          label: 'Annotations',
          value:
            annotations.length === 0 ? (
              <Text size="sm" c="dimmed">
                None
              </Text>
            ) : (
              <Stack gap={4}>
                {annotations.map(({ key, value }) => (
                  <Text key={key} size="sm">
                    <Code>
                      <IsolatedText isIdentifier>{key}</IsolatedText>
                    </Code>{' '}
                    = <IsolatedText>{value}</IsolatedText>
                  </Text>
                ))}
              </Stack>
            ),
        },
        {
          label: 'Resource version',
          value: <Text size="sm">{user.metadata?.resourceVersion ?? ''}</Text>,
        },
      ]}
    />
  );
}
