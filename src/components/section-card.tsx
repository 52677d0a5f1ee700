import { Card, Title } from '@mantine/core';
import { useId, type ReactNode } from 'react';

export type SectionCardProps = {
  title: string;
  children: ReactNode;
};

/** A titled card that is a landmark region named by its title. */
export function SectionCard({ title, children }: SectionCardProps) {
  const titleId = useId();
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId} mb="md">
        {title}
      </Title>
      {children}
    </Card>
  );
}
