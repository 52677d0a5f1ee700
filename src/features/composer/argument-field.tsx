import { Alert, Input, JsonInput, SegmentedControl, Stack } from '@mantine/core';
import { useState } from 'react';
import { useController, type Control } from 'react-hook-form';
import type { DamlType } from '@/api/daml-lf-decoder';
import type { ComposerValues } from './composer-form-schema';
import { ArgumentForm } from './daml-value-editor';
import { parseJson, toJsonText } from './daml-value';

type ArgumentName =
  | `commands.${number}.createArguments`
  | `commands.${number}.choiceArgument`
  | `commands.${number}.contractKey`;

export type ArgumentFieldProps = {
  control: Control<ComposerValues>;
  name: ArgumentName;
  /** "Template arguments", "Choice argument", … */
  label: string;
  /** The argument's type when its package is decoded; JSON only without it. */
  type: DamlType | undefined;
};

type View = 'form' | 'json';

/**
 * One argument, edited as JSON or as a form generated from its type: two views of the same JSON
 * text in the form state, so switching views keeps the value.
 */
export function ArgumentField({ control, name, label, type }: ArgumentFieldProps) {
  const {
    field: { ref, value: text, onChange, onBlur },
    fieldState,
  } = useController({ control, name });
  const [view, setView] = useState<View>('form');
  const shownView: View = type ? view : 'json';
  const parsed = parseJson(text);

  return (
    <Input.Wrapper label={label} error={fieldState.error?.message} component="div">
      <Stack gap="xs" mt={4}>
        {type && (
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(next) => {
              setView(next === 'json' ? 'json' : 'form');
            }}
            data={[
              { value: 'form', label: 'Form' },
              { value: 'json', label: 'JSON' },
            ]}
            aria-label={`${label} view`}
            style={{ alignSelf: 'flex-start' }}
          />
        )}
        {shownView === 'json' || !type ? (
          <JsonInput
            ref={ref}
            aria-label={`${label} JSON`}
            value={text}
            onChange={onChange}
            onBlur={onBlur}
            validationError="Not valid JSON"
            formatOnBlur
            autosize
            minRows={4}
            maxRows={24}
            spellCheck={false}
            error={fieldState.error !== undefined}
          />
        ) : parsed ? (
          <ArgumentForm
            type={type}
            value={parsed.value}
            label={label}
            onChange={(value) => {
              onChange(toJsonText(value));
            }}
          />
        ) : (
          <Alert color="yellow" title="The JSON does not parse">
            Fix it in the JSON view to edit it as a form.
          </Alert>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
