import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AddRowButton } from './add-row-button';

describe('AddRowButton', () => {
  it('is a button named by what it adds, which adds on each click', async () => {
    const add = vi.fn();
    render(
      <MantineProvider>
        <AddRowButton onClick={add}>Add party right</AddRowButton>
      </MantineProvider>,
    );
    const button = screen.getByRole('button', { name: 'Add party right' });
    await userEvent.click(button);
    await userEvent.click(button);
    expect(add).toHaveBeenCalledTimes(2);
    // A plain button, not a submit: it never sends the form it sits in.
    expect(button).toHaveAttribute('type', 'button');
  });
});
