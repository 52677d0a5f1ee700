import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { toApiError } from '@/lib/errors/api-error';
import { ErrorAlert } from './error-alert';

describe('ErrorAlert', () => {
  it('shows an override in the participant’s message instead of obeying it, isolated', () => {
    const error = toApiError(400, {
      code: 'INVALID_ARGUMENT',
      cause: 'The submitted request has invalid arguments: party hint \u202Egnp.exe\u202C',
    });
    render(
      <MantineProvider>
        <ErrorAlert error={error} />
      </MantineProvider>,
    );
    const message = screen.getByText(/party hint ⟨U\+202E⟩gnp\.exe⟨U\+202C⟩$/);
    expect(message.tagName).toBe('BDI');
  });
});
