import { ActionIcon, Button, Fieldset, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useFieldArray, useFormState, type UseFormReturn } from 'react-hook-form';
import { CopyAsMenu } from '@/components/copy-as-menu';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { FormActions } from '@/components/form/form-actions';
import { FormRootError } from '@/components/form/form-root-error';
import { FormTextInput } from '@/components/form/form-text-input';
import { AddRowButton } from '@/components/add-row-button';
import { RemoveButton } from '@/components/remove-button';
import { StrokeIcon } from '@/components/stroke-icon';
import type { CopyAsCommands } from '@/lib/text/copy-as';
import { CommandEditor } from './command-editor';
import type { SubmitterScope } from './composer-access';
import {
  COMMAND_KIND_LABELS,
  COMMAND_KINDS,
  emptyCommand,
  newCommandId,
  type ComposerValues,
} from './composer-form-schema';
import { PartiesField } from './parties-field';
import { SegmentedChoiceField } from './segmented-choice-field';
import type { TemplateCatalog } from '@/hooks/template-catalog';
import { buttonBusy } from '@/components/form/button-busy';

export type ComposerFormProps = {
  form: UseFormReturn<ComposerValues>;
  scope: SubmitterScope;
  catalog: TemplateCatalog;
  recentTemplateIds: readonly string[];
  recentContracts: readonly { contractId: string; templateId: string }[];
  onSubmit: (values: ComposerValues) => void;
  isSubmitting: boolean;
  submitError: unknown;
  /** What "Copy as…" copies: the request Submit would send now; undefined while invalid. */
  copyAs: () => CopyAsCommands | undefined;
  /** Prepares the commands instead of submitting them, to look before committing. */
  onPreview: (values: ComposerValues) => void;
  isPreviewing: boolean;
  /** Shown just above the submit bar, where the eye is after Submit: a failure and its fix. */
  failure?: ReactNode;
};

/** The batch of commands and the submission's settings. */
export function ComposerForm({
  form,
  scope,
  catalog,
  recentTemplateIds,
  recentContracts,
  onSubmit,
  isSubmitting,
  submitError,
  copyAs,
  onPreview,
  isPreviewing,
  failure,
}: ComposerFormProps) {
  const { control } = form;
  const { isDirty } = useFormState({ control });
  const commands = useFieldArray({ control, name: 'commands' });
  const disclosed = useFieldArray({ control, name: 'disclosedContracts' });
  const handleSubmit = form.handleSubmit(onSubmit);
  const handlePreview = form.handleSubmit(onPreview);

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Compose commands">
      <Stack gap="lg">
        <FormRootError control={control} error={submitError} />
        {commands.fields.map((field, index) => (
          <CommandEditor
            key={field.id}
            control={control}
            index={index}
            count={commands.fields.length}
            catalog={catalog}
            recentTemplateIds={recentTemplateIds}
            recentContracts={recentContracts}
            onRemove={() => {
              commands.remove(index);
            }}
            onMove={(to) => {
              commands.move(index, to);
            }}
          />
        ))}
        <Group gap="xs">
          {COMMAND_KINDS.map((kind) => (
            <Button
              key={kind}
              variant="default"
              size="xs"
              onClick={() => {
                commands.append(emptyCommand(kind));
              }}
            >
              Add {COMMAND_KIND_LABELS[kind].toLowerCase()} command
            </Button>
          ))}
        </Group>

        <Fieldset legend="Submitted as">
          <Stack gap="sm">
            <PartiesField
              control={control}
              name="actAs"
              label="Act as"
              description="The parties that authorize the commands."
              scope={scope.actAs}
              required
            />
            <PartiesField
              control={control}
              name="readAs"
              label="Read as"
              description="Extra parties whose contracts the commands may use."
              scope={scope.readAs}
            />
            <FormTextInput
              control={control}
              name="userId"
              label="User id"
              description={
                scope.userIdRequired
                  ? 'Required: no user is signed in, so the participant cannot default it.'
                  : 'Defaults to your own user.'
              }
              required={scope.userIdRequired}
              autoComplete="off"
              spellCheck={false}
              maw={FIELD_WIDTH.medium}
            />
          </Stack>
        </Fieldset>

        <Fieldset legend="Submission">
          <Stack gap="sm">
            <Group align="flex-end" wrap="nowrap">
              <FormTextInput
                control={control}
                name="commandId"
                label="Command id"
                description="With your user and the Act as parties, identifies the change for deduplication."
                required
                style={{ flex: 1 }}
                maw={FIELD_WIDTH.medium}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                autoComplete="off"
                spellCheck={false}
              />
              <ActionIcon
                variant="default"
                size="lg"
                mb={4}
                aria-label="New command id"
                title="New command id"
                onClick={() => {
                  form.setValue('commandId', newCommandId(), { shouldValidate: true });
                }}
              >
                <StrokeIcon size={16}>
                  <path d="M21 12a9 9 0 1 1-3-6.7L21 8M21 3v5h-5" />
                </StrokeIcon>
              </ActionIcon>
            </Group>
            <FormTextInput
              control={control}
              name="workflowId"
              label="Workflow id"
              description="Optional."
              autoComplete="off"
              spellCheck={false}
              maw={FIELD_WIDTH.medium}
            />
            <SegmentedChoiceField
              form={form}
              path="deduplication"
              label="Deduplication period"
              options={[
                { value: 'none', label: 'Participant default' },
                {
                  value: 'duration',
                  label: 'Duration',
                  input: {
                    name: 'deduplication.seconds',
                    label: 'Deduplication duration (seconds)',
                    inputMode: 'decimal',
                    maw: FIELD_WIDTH.short,
                  },
                },
                {
                  value: 'offset',
                  label: 'Since offset',
                  input: {
                    name: 'deduplication.offset',
                    label: 'Deduplicate since offset',
                    inputMode: 'numeric',
                    maw: FIELD_WIDTH.short,
                  },
                },
              ]}
            />
            <SegmentedChoiceField
              form={form}
              path="minLedgerTime"
              label="Minimum ledger time"
              options={[
                { value: 'none', label: 'None' },
                {
                  value: 'absolute',
                  label: 'Absolute',
                  input: {
                    name: 'minLedgerTime.absolute',
                    label: 'Minimum ledger time (ISO 8601)',
                    placeholder: '2030-01-01T00:00:00Z',
                    maw: FIELD_WIDTH.medium,
                  },
                },
                {
                  value: 'relative',
                  label: 'Relative',
                  input: {
                    name: 'minLedgerTime.relativeSeconds',
                    label: 'Minimum ledger time, seconds from receipt',
                    inputMode: 'decimal',
                    maw: FIELD_WIDTH.short,
                  },
                },
              ]}
            />
          </Stack>
        </Fieldset>

        <Fieldset legend="Disclosed contracts">
          <Stack gap="sm">
            {disclosed.fields.length === 0 && (
              <Text size="sm" c="dimmed">
                None. Add contracts your parties cannot see, with their created event blob.
              </Text>
            )}
            {disclosed.fields.map((field, index) => {
              const number = String(index + 1);
              const base = `disclosedContracts.${String(index)}` as `disclosedContracts.${number}`;
              return (
                <Group key={field.id} align="flex-start" wrap="nowrap">
                  <SimpleGrid cols={{ base: 1, sm: 2 }} style={{ flex: 1 }}>
                    <FormTextInput
                      control={control}
                      name={`${base}.contractId`}
                      label={`Disclosed contract ${number} contract id`}
                      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                    />
                    <FormTextInput
                      control={control}
                      name={`${base}.templateId`}
                      label={`Disclosed contract ${number} template id`}
                    />
                    <FormTextInput
                      control={control}
                      name={`${base}.createdEventBlob`}
                      label={`Disclosed contract ${number} created event blob`}
                      required
                    />
                    <FormTextInput
                      control={control}
                      name={`${base}.synchronizerId`}
                      label={`Disclosed contract ${number} synchronizer id`}
                    />
                  </SimpleGrid>
                  <RemoveButton
                    label={`Remove disclosed contract ${number}`}
                    onClick={() => {
                      disclosed.remove(index);
                    }}
                  />
                </Group>
              );
            })}
            <AddRowButton
              onClick={() => {
                disclosed.append({
                  contractId: '',
                  templateId: '',
                  createdEventBlob: '',
                  synchronizerId: '',
                });
              }}
            >
              Add disclosed contract
            </AddRowButton>
          </Stack>
        </Fieldset>

        {failure}
        <FormActions
          submitLabel="Submit"
          isSubmitting={isSubmitting}
          beside={
            <Button
              variant="light"
              loading={buttonBusy(isPreviewing)}
              disabled={isSubmitting}
              onClick={() => void handlePreview()}
            >
              Preview
            </Button>
          }
          cancel={{
            label: 'Reset',
            isDisabled: !isDirty,
            onClick: () => {
              form.reset();
            },
          }}
          extra={
            <CopyAsMenu
              commands={copyAs}
              unavailableReason="Complete the form first: what is copied is exactly what Submit would send."
            />
          }
        />
      </Stack>
    </form>
  );
}
