import { Component, type ErrorInfo, type ReactNode } from 'react';
import { CrashScreen } from './crash-screen';
import { reportCrash } from './report-crash';

interface CrashBoundaryProps {
  /** Changes on navigation; a new key clears the crash screen (specification §2). */
  resetKey: string;
  children: ReactNode;
}

interface CrashBoundaryState {
  error: unknown;
  failedKey: string | null;
}

/** Catches a render crash below it, reports it, and shows the crash screen until the user navigates. */
export class CrashBoundary extends Component<CrashBoundaryProps, CrashBoundaryState> {
  override state: CrashBoundaryState = { error: null, failedKey: null };

  static getDerivedStateFromError(error: unknown): Partial<CrashBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(
    props: CrashBoundaryProps,
    state: CrashBoundaryState,
  ): Partial<CrashBoundaryState> | null {
    if (state.error !== null && state.failedKey === null) return { failedKey: props.resetKey };
    if (state.error !== null && state.failedKey !== props.resetKey) return { error: null, failedKey: null };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    reportCrash(error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.error !== null ? <CrashScreen error={this.state.error} /> : this.props.children;
  }
}
