import { Component, type ReactNode } from "react";
import { useLocation } from "wouter";
import { PageError } from "./page-error";

interface BoundaryProps {
  children: ReactNode;
  /** A change of this (the address) clears the error: going elsewhere shows the new page. */
  resetKey: string;
}

interface BoundaryState {
  failure: { error: unknown } | null;
}

/** React catches render errors only in a class component. (React itself logs each caught error to the console.) */
class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { failure: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { failure: { error } };
  }

  componentDidUpdate(previous: BoundaryProps) {
    if (this.state.failure && previous.resetKey !== this.props.resetKey) this.setState({ failure: null });
  }

  render() {
    const { failure } = this.state;
    if (failure) return <PageError error={failure.error} onRetry={() => this.setState({ failure: null })} />;
    return this.props.children;
  }
}

/** Keeps a page that fails (a bug, a page's code that did not load) from blanking the window. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  return <ErrorBoundary resetKey={location}>{children}</ErrorBoundary>;
}
