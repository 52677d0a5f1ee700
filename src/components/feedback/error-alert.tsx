import { Alert, Badge, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { describeError } from '@/lib/errors/api-error';
import { revealBidiControls } from '@/lib/text/display-text';
import { AuthRecovery } from './auth-recovery';

export type ErrorAlertProps = {
  error: unknown;
  /** Shows a Retry button when given. */
  onRetry?: () => void;
};

/**
 * A failed section or page: title and cause from the error model, the code, copyable correlation
 * and trace ids (operators search logs by them) and the error's context, collapsed.
 */
export function ErrorAlert({ error, onRetry }: ErrorAlertProps) {
  const { title, message, code, severity, status, correlationId, traceId, details, isAuthProblem } =
    describeError(error);
  const hasDetails = Object.keys(details).length > 0;
  const color = severity === 'warning' ? 'orange' : 'red';

  return (
    <Alert color={color} variant="light" title={title}>
      <Stack gap="xs">
        <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
          {/* The participant's message can quote request values (a party hint, an annotation). */}
          <bdi>{revealBidiControls(message)}</bdi>
        </Text>
        {(code ?? correlationId ?? traceId) !== undefined && (
          <Group gap="xs">
            {code !== undefined && (
              <Badge color={color} variant="light" tt="none">
                {code}
              </Badge>
            )}
            {correlationId !== undefined && (
              <CopyIdButton label="correlation id" value={correlationId} />
            )}
            {traceId !== undefined && traceId !== correlationId && (
              <CopyIdButton label="trace id" value={traceId} />
            )}
          </Group>
        )}
        {isAuthProblem && status !== undefined && <AuthRecovery status={status} />}
        {hasDetails && (
          <details>
            <summary>
              <Text span size="sm">
                Details
              </Text>
            </summary>
            <Code block mt="xs">
              {JSON.stringify(details, null, 2)}
            </Code>
          </details>
        )}
        {onRetry && (
          <Group>
            <Button size="xs" variant="light" color={color} onClick={onRetry}>
              Retry
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

function CopyIdButton({ label, value }: { label: string; value: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button size="compact-xs" variant="subtle" color="gray" onClick={copy} title={value}>
          {copied ? 'Copied' : `Copy ${label}`}
        </Button>
      )}
    </CopyButton>
  );
}
