import { Progress } from '@mantine/core';
import { useNavigation } from 'react-router';

/** The thin bar at the top while a route loads; alone in its component, so only it re-renders. */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <Progress
      value={100}
      animated
      size="xs"
      radius={0}
      pos="fixed"
      top={0}
      left={0}
      right={0}
      style={{ zIndex: 1000 }}
      aria-label="Loading page"
    />
  );
}
