import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { readAccessToken } from '@/api/access-token';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { FormTextarea } from '@/components/form/form-textarea';
import { SectionCard } from '@/components/section-card';
import { VerdictList } from '@/components/verdict-list';
import { MAX_TOKEN_BYTES } from './diagnosis/inspect-token';
import { DEFAULT_CLOCK_SKEW_SECONDS } from './diagnosis/time-verdicts';
import {
  emptyTokenDoctorValues,
  tokenDoctorSchema,
  type TokenDoctorInput,
  type TokenDoctorValues,
} from './token-doctor-form-schema';
import { useTokenDoctor, type Examination } from './use-token-doctor';

/**
 * Paste a token (or take the current one) and get Canton's verdicts on it, each with its fix. The
 * token stays in this page: it is decoded here and never sent, logged or put in a URL.
 */
export function TokenDoctorPanel() {
  const form = useForm<TokenDoctorInput, unknown, TokenDoctorValues>({
    resolver: zodResolver(tokenDoctorSchema),
    defaultValues: emptyTokenDoctorValues,
  });
  const [examination, setExamination] = useState<Examination | undefined>();
  const { verdicts, isSignedIn } = useTokenDoctor(examination);

  const examine = form.handleSubmit(({ token }) => {
    setExamination(examinationOf(token));
  });

  const takeCurrentToken = () => {
    const token = readAccessToken();
    if (token === undefined) {
      form.setError('token', {
        type: 'manual',
        message: 'This console has no current token: it is not signed in with one.',
      });
      return;
    }
    form.setValue('token', token, { shouldDirty: true });
    void examine();
  };

  return (
    <Stack gap="lg">
      <SectionCard title="Token to examine">
        <form onSubmit={(event) => void examine(event)} noValidate>
          <Stack>
            <Text size="sm">
              The pasted token is only decoded in this browser; lookups use your current sign-in.
            </Text>
            <FormTextarea
              control={form.control}
              name="token"
              label="Token"
              description={`A JWT access token, with or without "Bearer " (up to ${String(MAX_TOKEN_BYTES / 1024)} KB). Times are judged against this browser's clock, allowing ${String(DEFAULT_CLOCK_SKEW_SECONDS)} s of difference to the participant's.`}
              autosize
              minRows={3}
              maxRows={8}
              spellCheck={false}
              autoComplete="off"
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              maw={FIELD_WIDTH.long}
            />
            <FormActions
              submitLabel="Examine token"
              isSubmitting={false}
              extra={
                <Button variant="default" onClick={takeCurrentToken}>
                  Use my current token
                </Button>
              }
            />
          </Stack>
        </form>
      </SectionCard>
      {examination !== undefined && (
        <SectionCard title="Verdicts">
          <Stack>
            {!isSignedIn && (
              <Alert color="gray" variant="light" title="Lookups need a sign-in">
                Without a sign-in the doctor only decodes the token: whether its user exists, is
                active and has rights stays unknown.
              </Alert>
            )}
            {verdicts === undefined ? (
              <Group gap="xs">
                <Loader size="xs" />
                <Text size="sm">Checking with the participant…</Text>
              </Group>
            ) : (
              <VerdictList verdicts={verdicts} />
            )}
          </Stack>
        </SectionCard>
      )}
    </Stack>
  );
}

/** Called from the submit handler: the moment of examining is when times are judged. */
function examinationOf(token: string): Examination {
  return { token, at: Date.now() };
}
