import { Alert, Input, JsonInput, SegmentedControl, Stack } from '@mantine/core';
import { useId, useState } from 'react';
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
  const labelId = useId();
  const errorId = useId();
  const error = fieldState.error?.message;
  const isJsonView = shownView === 'json' || !type;

  return (
    <Input.Wrapper
      label={label}
      labelElement="div"
      labelProps={{ id: labelId }}
      // In the JSON view the editor itself carries the error (and its description); in the form
      // view the group of generated inputs does.
      error={isJsonView ? undefined : error}
      errorProps={{ id: errorId }}
      component="div"
    >
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
        {isJsonView ? (
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
            error={error}
          />
        ) : parsed ? (
          <div
            role="group"
            aria-labelledby={labelId}
            aria-describedby={error ? errorId : undefined}
          >
            <ArgumentForm
              type={type}
              value={parsed.value}
              label={label}
              onChange={(value) => {
                onChange(toJsonText(value));
              }}
            />
          </div>
        ) : (
          <Alert color="yellow" title="The JSON does not parse">
            Fix it in the JSON view to edit it as a form.
          </Alert>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
