// One view's failure stays in that view: a note that breaks the mind map or the note viewer shows an
// error there, while the other views (and the rest of the page) keep working.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, ErrorBox } from './ui.js';

interface Props {
  /** Named in the message, e.g. "The mind map". */
  name: string;
  /** A new key (another note, another view) clears a shown error. */
  resetKey?: unknown;
  children: ReactNode;
}

export class ViewBoundary extends Component<Props, { error: Error | null; key: unknown }> {
  override state = { error: null as Error | null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: { error: Error | null; key: unknown }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`${this.props.name} failed`, error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div>
        <ErrorBox error={`${this.props.name} could not be shown: ${error.message}`} />
        <Button onClick={() => this.setState({ error: null })}>Try again</Button>
      </div>
    );
  }
}
