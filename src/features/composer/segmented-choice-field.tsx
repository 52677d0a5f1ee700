import { SegmentedControl, Stack, Text, type TextInputProps } from '@mantine/core';
import { useId } from 'react';
import { useWatch, type Path, type UseFormReturn } from 'react-hook-form';
import { FormTextInput } from '@/components/form/form-text-input';
import type { ComposerValues } from './composer-form-schema';

/** The composer's settings that are a choice of kind, each with its own value to enter. */
type ChoicePath = 'deduplication' | 'minLedgerTime';
type Kind<P extends ChoicePath> = ComposerValues[P]['kind'];

export type ChoiceOption<P extends ChoicePath> = {
  value: Kind<P>;
  label: string;
  /** The field this kind needs; none for a kind that is complete by itself. */
  input?: Pick<TextInputProps, 'label' | 'placeholder' | 'inputMode' | 'maw'> & {
    name: Path<ComposerValues>;
  };
};

export type SegmentedChoiceFieldProps<P extends ChoicePath> = {
  form: UseFormReturn<ComposerValues>;
  /** The setting: its `kind` is chosen here, the chosen kind's value entered below. */
  path: P;
  label: string;
  options: readonly ChoiceOption<P>[];
};

/**
 * A labelled choice between kinds of a setting (a segmented control), and the field the chosen
 * kind needs below it.
 */
export function SegmentedChoiceField<P extends ChoicePath>({
  form,
  path,
  label,
  options,
}: SegmentedChoiceFieldProps<P>) {
  const kindName = `${path}.kind` as const;
  const kind = useWatch({ control: form.control, name: kindName }) as Kind<P>;
  const labelId = useId();
  const input = options.find((option) => option.value === kind)?.input;
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={labelId}>
        {label}
      </Text>
      <SegmentedControl
        aria-labelledby={labelId}
        value={kind}
        onChange={(chosen) => {
          form.setValue(kindName, chosen);
        }}
        data={options.map(({ value, label: optionLabel }) => ({ value, label: optionLabel }))}
        style={{ alignSelf: 'flex-start' }}
      />
      {input !== undefined && <FormTextInput key={input.name} control={form.control} {...input} />}
    </Stack>
  );
}
