import { ActionIcon, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useController, useWatch, type Control } from 'react-hook-form';
import type { DamlType } from '@/api/daml-lf-decoder';
import { FIELD_WIDTH } from '@/components/form/field-widths';
import { RemoveButton } from '@/components/remove-button';
import { StrokeIcon } from '@/components/stroke-icon';
import { describeError } from '@/lib/errors/api-error';
import { ArgumentField } from './argument-field';
import { FormAutocomplete } from './form-autocomplete';
import {
  COMMAND_KIND_LABELS,
  COMMAND_KINDS,
  commandUsesChoice,
  commandUsesContractId,
  commandUsesContractKey,
  commandUsesCreateArguments,
  type ComposerValues,
} from './composer-form-schema';
import { choicesOf, resolveTemplate, type TemplateCatalog } from '@/hooks/template-catalog';

const MAX_SHOWN_OPTIONS = 50;

export type CommandEditorProps = {
  control: Control<ComposerValues>;
  index: number;
  count: number;
  catalog: TemplateCatalog;
  /** Template ids seen lately (history), offered first. */
  recentTemplateIds: readonly string[];
  /** Contracts seen lately, offered as contract ids. */
  recentContracts: readonly { contractId: string; templateId: string }[];
  onRemove: () => void;
  onMove: (to: number) => void;
};

/** One command of the batch: its kind, template, contract or key, choice and arguments. */
export function CommandEditor({
  control,
  index,
  count,
  catalog,
  recentTemplateIds,
  recentContracts,
  onRemove,
  onMove,
}: CommandEditorProps) {
  const prefix = `commands.${String(index)}` as `commands.${number}`;
  const kind = useWatch({ control, name: `${prefix}.kind` });
  const templateIdValue = useWatch({ control, name: `${prefix}.templateId` });
  const choiceValue = useWatch({ control, name: `${prefix}.choice` });
  const number = String(index + 1);

  const {
    field: { value: kindValue, onChange: onKindChange },
  } = useController({ control, name: `${prefix}.kind` });

  const template = resolveTemplate(catalog.templates, templateIdValue);
  const choices = template ? choicesOf(template, catalog.packages) : [];
  const choice = choices.find((entry) => entry.choice.name === choiceValue.trim())?.choice;
  const templateType: DamlType | undefined = template
    ? { kind: 'con', tycon: template.template.tycon, args: [] }
    : undefined;

  const templateOptions = templateSuggestions(catalog, recentTemplateIds);
  const contractOptions = recentContracts
    .filter(
      (contract) =>
        !template ||
        contract.templateId.split(':').slice(1).join(':') ===
          `${template.moduleName}:${template.template.name}`,
    )
    .map((contract) => contract.contractId);

  return (
    <Card withBorder padding="md" component="section" aria-label={`Command ${number}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h5">
            Command {number}
          </Title>
          <Group gap={4} wrap="nowrap">
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Move command ${number} up`}
              disabled={index === 0}
              onClick={() => {
                onMove(index - 1);
              }}
            >
              <StrokeIcon size={16}>
                <path d="M12 19V5M5 12l7-7 7 7" />
              </StrokeIcon>
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={`Move command ${number} down`}
              disabled={index === count - 1}
              onClick={() => {
                onMove(index + 1);
              }}
            >
              <StrokeIcon size={16}>
                <path d="M12 5v14M5 12l7 7 7-7" />
              </StrokeIcon>
            </ActionIcon>
            {count > 1 && <RemoveButton label={`Remove command ${number}`} onClick={onRemove} />}
          </Group>
        </Group>
        <Select
          label={`Command ${number} kind`}
          data={COMMAND_KINDS.map((value) => ({ value, label: COMMAND_KIND_LABELS[value] }))}
          value={kindValue}
          allowDeselect={false}
          maw={FIELD_WIDTH.short}
          onChange={(next) => {
            const chosen = COMMAND_KINDS.find((candidate) => candidate === next);
            if (chosen) onKindChange(chosen);
          }}
        />
        <FormAutocomplete
          control={control}
          name={`${prefix}.templateId`}
          label="Template id"
          description={withHint(
            template
              ? `${template.packageName} ${template.packageVersion}, module ${template.moduleName}`
              : catalog.isLoading
                ? 'Reading the participant’s packages…'
                : '#<package-name>:<Module>:<Entity> or <package-id>:<Module>:<Entity>',
            catalogProblem(catalog),
          )}
          required
          data={templateOptions}
          limit={MAX_SHOWN_OPTIONS}
          maw={FIELD_WIDTH.long}
        />
        {commandUsesContractId(kind) && (
          <FormAutocomplete
            control={control}
            name={`${prefix}.contractId`}
            label="Contract id"
            description={
              contractOptions.length > 0
                ? 'Contracts created by your recent submissions are offered.'
                : undefined
            }
            required
            data={contractOptions}
            limit={MAX_SHOWN_OPTIONS}
            maw={FIELD_WIDTH.long}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        )}
        {commandUsesContractKey(kind) && (
          <ArgumentField
            control={control}
            name={`${prefix}.contractKey`}
            label="Contract key"
            type={template?.template.keyType}
          />
        )}
        {commandUsesCreateArguments(kind) && (
          <ArgumentField
            control={control}
            name={`${prefix}.createArguments`}
            label="Template arguments"
            type={templateType}
          />
        )}
        {commandUsesChoice(kind) && (
          <>
            <FormAutocomplete
              control={control}
              name={`${prefix}.choice`}
              label="Choice"
              required
              maw={FIELD_WIDTH.medium}
              data={choices.map((entry) => entry.choice.name)}
              description={
                choice
                  ? choice.consuming
                    ? 'Consuming: archives the contract.'
                    : 'Non-consuming.'
                  : undefined
              }
            />
            <ArgumentField
              key={choice?.name ?? ''}
              control={control}
              name={`${prefix}.choiceArgument`}
              label="Choice argument"
              type={choice?.argType}
            />
          </>
        )}
        {!template && templateIdValue.trim() !== '' && !catalog.isLoading && (
          <Text size="sm" c="dimmed">
            This template is not among the participant’s decoded packages: arguments are JSON only.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/**
 * Why suggestions are missing (style guide §B6: a failing picker adds a hint line, the field
 * still takes a typed id).
 */
function catalogProblem(catalog: TemplateCatalog): string | undefined {
  if (catalog.listError) {
    return `The participant’s packages could not be listed (${describeError(catalog.listError).message}); type a template id.`;
  }
  const { unreadable } = catalog;
  if (!unreadable) return undefined;
  const packages = unreadable.count === 1 ? '1 package' : `${String(unreadable.count)} packages`;
  return `${packages} could not be read (${describeError(unreadable.firstError).message}); their templates are not suggested.`;
}

function withHint(description: string, hint: string | undefined): string {
  return hint ? `${description} ${hint}` : description;
}

/** Recent templates first, then every template by package name and by package id. */
function templateSuggestions(catalog: TemplateCatalog, recent: readonly string[]) {
  const recentGroup = [...new Set(recent)];
  const byName = [...new Set(catalog.templates.map((entry) => entry.byName))].filter(
    (id) => !recentGroup.includes(id),
  );
  const byId = catalog.templates
    .map((entry) => entry.byId)
    .filter((id) => !recentGroup.includes(id));
  return [
    ...(recentGroup.length > 0 ? [{ group: 'Recently used', items: recentGroup }] : []),
    ...(byName.length > 0 ? [{ group: 'By package name', items: byName }] : []),
    ...(byId.length > 0 ? [{ group: 'By package id', items: byId }] : []),
  ];
}
