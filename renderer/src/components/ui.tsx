import type { ComponentProps, ReactNode } from 'react';
import css from './ui.module.css';

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

export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className={css.error} role="alert">
      {message}
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
