import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useNavigate } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { LinkNavigationContext, type LinkNavigation } from './link-navigation';
import { PlainLink } from './plain-link';

/** The app's wiring in small: hrefs under a basename, clicks through the router. */
function Links() {
  const navigate = useNavigate();
  const navigation: LinkNavigation = {
    href: (to) => `/p/north${to}`,
    navigate: (to) => {
      void navigate(to);
    },
  };
  return (
    <LinkNavigationContext value={navigation}>
      <PlainLink to="/parties/alice">alice</PlainLink>
    </LinkNavigationContext>
  );
}

function showInRouter() {
  const router = createMemoryRouter(
    [
      { path: '/', element: <Links /> },
      { path: '/parties/:party', element: <p>Party page</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const withNavigation = (navigation: LinkNavigation) =>
  render(
    <LinkNavigationContext value={navigation}>
      <PlainLink to="/parties/alice" target="_blank">
        alice
      </PlainLink>
      <PlainLink to="/parties/bob">bob</PlainLink>
    </LinkNavigationContext>,
  );

describe('PlainLink', () => {
  it('carries the app’s href, and a plain click goes there through the router', async () => {
    const router = showInRouter();
    const link = screen.getByRole('link', { name: 'alice' });
    expect(link).toHaveAttribute('href', '/p/north/parties/alice');
    // fireEvent returns false when a handler prevented the browser's own navigation.
    expect(fireEvent.click(link)).toBe(false);
    expect(await screen.findByText('Party page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/parties/alice');
  });

  it('leaves to the browser a click for another tab or window', () => {
    const navigation = { href: (to: string) => to, navigate: vi.fn() };
    withNavigation(navigation);
    const bob = screen.getByRole('link', { name: 'bob' });
    for (const modifier of ['ctrlKey', 'metaKey', 'shiftKey', 'altKey'] as const) {
      expect(fireEvent.click(bob, { [modifier]: true })).toBe(true);
    }
    expect(fireEvent.click(bob, { button: 1 })).toBe(true);
    expect(fireEvent.click(screen.getByRole('link', { name: 'alice' }))).toBe(true);
    expect(navigation.navigate).not.toHaveBeenCalled();

    expect(fireEvent.click(bob)).toBe(false);
    expect(navigation.navigate).toHaveBeenCalledWith('/parties/bob');
  });

  it('is a plain anchor to its path where the app gives no navigation', () => {
    render(<PlainLink to="/parties/alice">alice</PlainLink>);
    const link = screen.getByRole('link', { name: 'alice' });
    expect(link).toHaveAttribute('href', '/parties/alice');
    expect(fireEvent.click(link)).toBe(true);
  });
});
