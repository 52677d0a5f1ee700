import { Component, type ReactNode } from 'react';

export type ErrorBoundaryFallbackProps = {
  error: unknown;
  resetErrorBoundary: () => void;
};

export type ErrorBoundaryProps = {
  children: ReactNode;
  fallbackRender: (props: ErrorBoundaryFallbackProps) => ReactNode;
  /** Called before the boundary re-renders its children, e.g. to reset failed queries. */
  onReset?: () => void;
};

type ErrorBoundaryState = { hasError: false } | { hasError: true; error: unknown };

/**
 * Catches render errors of its subtree and shows `fallbackRender` instead. React itself logs what a
 * boundary catches (root option `onCaughtError`), so this does not log again.
 */
// React has no hook for catching render errors; a class component is the only way.
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { hasError: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { hasError: true, error };
  }

  private readonly resetErrorBoundary = (): void => {
    this.props.onReset?.();
    this.setState({ hasError: false });
  };

  override render(): ReactNode {
    if (!this.state.hasError) return this.props.children;
    return this.props.fallbackRender({
      error: this.state.error,
      resetErrorBoundary: this.resetErrorBoundary,
    });
  }
}
