import type { ComponentProps, ReactNode } from 'react';
import css from './ui.module.css';
import { errorText } from '../lib/error-text.js';

type ButtonProps = ComponentProps<'button'> & { variant?: 'primary' | 'plain'; size?: 'small' | 'normal' };

export function Button({ variant = 'plain', size = 'normal', className, ...rest }: ButtonProps) {
  const classes = [css.button, variant === 'primary' && css.primary, size === 'small' && css.small, className].filter(Boolean).join(' ');
  return <button type="button" className={classes} {...rest} />;
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={css.empty} role="status">
      <p className={css.emptyTitle}>{title}</p>
      {children}
    </div>
  );
}

/** What went wrong and what to do; the call's own message behind "Details". */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const { what, todo, details } = errorText(error);
  return (
    <div className={css.error} role="alert" data-testid="error-box">
      <p className={css.errorWhat}>{what}</p>
      {todo && <p className={css.errorTodo}>{todo}</p>}
      {details && details !== what && (
        <details className={css.errorDetails}>
          <summary>Details</summary>
          <pre>{details}</pre>
        </details>
      )}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return <div className={css.notice}>{children}</div>;
}

export function Badge({ children, title }: { children: ReactNode; title?: string }) {
  return (
    <span className={css.badge} title={title}>
      {children}
    </span>
  );
}

export function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  return <progress className={css.progressNative} value={max > 0 ? value : undefined} max={max > 0 ? max : undefined} aria-label={label} />;
}

export { css as ui };
